//! A game being played by people, one implementation for every front end:
//! the terminal (`terminal.rs`, `puzzle.rs`) and the studio's Play and
//! Puzzles pages (`server/play/`, `server/puzzles.rs`). What a front end
//! adds is only its input and output; what the game does with an answer,
//! and what undo may take back, is decided here once, so the terminal and
//! the studio cannot drift apart.
//!
//! A [`Session`] plays its game on `lab::driver`, the one game driver:
//! every choice, a human's or an agent's, goes through the driver's steps
//! (an agent per side, [`seats`]; a human's seat hands over the answer its
//! front end got). The session is the driver's observer: it records each
//! choice in the game log, tells each seat what it saw ([`narration`]),
//! keeps what undo may go back to ([`undo`]), and asks the front end
//! ([`Front`]) at each human decision. Answers are read by [`answer`];
//! puzzles, played against the solver rather than an agent, are
//! [`puzzle`]'s.

pub mod answer;
pub mod chance;
pub mod narration;
pub mod puzzle;
pub mod seats;
pub mod undo;
pub mod wording;

pub use wording::{sentence, the};

use crate::formats::log::GameLog;
use crate::game::engine::{
    Actor, Choice, Decision, DecisionKind, Event, Observer, PlayError, ScriptError,
};
use crate::game::model::{CardId, Side};
use crate::game::rules::Rules;
use crate::game::state::{PlayFrame, State};
use crate::lab::driver::{play_out, DriveError, Played, Steps};
use crate::players::agent::AgentSpec;
use narration::Narration;
use rand_pcg::Pcg64Mcg;
use seats::{Handover, Humans, Seats};
use std::ops::ControlFlow;
use undo::{History, NoUndo, Snapshot};

/// What a session keeps of its game besides the position: the log of every
/// choice, what each seat was told, and what undo may go back to.
#[derive(Debug)]
pub struct Record {
    pub log: GameLog,
    pub narration: Narration,
    pub history: History,
}

/// A game being played: its position, its record and its players.
pub struct Session {
    pub state: State,
    pub record: Record,
    seats: Seats,
    /// Draws chance outcomes, should a position ask for them (solver
    /// positions at the terminal); without, such a position stops the game
    /// ([`Failure::NoChance`]).
    chance: Option<Pcg64Mcg>,
    /// Hotseat: the screen owed to a player who could not answer a play
    /// ([`Pause`]), until it is given.
    pause: Option<Pause>,
}

/// Hotseat: a play went unanswered (R6) because the opponent held no card
/// that may answer it, while its player could not tell (the opponent's
/// reaction cards lie out of sight: `State::could_be_answered`). Had the
/// opponent held one, the screen would have gone to them at the reaction
/// window and back. So that the handovers do not tell which, the screen
/// goes to the opponent all the same before the player's next decision,
/// with nothing to do but pass it back. Owed only when that next decision
/// is the player's own: when it is the opponent's, the screen goes to them
/// anyway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pause {
    /// Who is shown the screen: the opponent of the play's player.
    pub to: Side,
    /// The card played.
    pub card: CardId,
}

impl Pause {
    /// The pause as a decision: the reaction window it stands for, with
    /// passing the only option (a window always offers a card to react
    /// with, so the two are told apart).
    pub fn decision(&self) -> Decision {
        Decision {
            actor: Actor::Player(self.to),
            kind: DecisionKind::Reaction { against: self.card },
            options: vec![Choice::Pass],
        }
    }
}

/// A pause owed ([`Pause`]), as the session gives it to its front end.
pub struct Paused<'a> {
    pub state: &'a State,
    pub pause: Pause,
    pub record: &'a Record,
}

/// A human's decision, as the session asks its front end.
pub struct Asked<'a> {
    pub state: &'a State,
    pub side: Side,
    pub decision: &'a Decision,
    pub record: &'a Record,
}

/// What a front end answers at a human's decision.
pub enum Turn<S> {
    /// The human's choice, one of the decision's options.
    Choose(Choice),
    /// The game stops before the decision (the front end says why).
    Stop(S),
}

/// The input and output of a session: the terminal, or the studio.
pub trait Front {
    /// Why the front end stops the game at a human's decision.
    type Stop;
    type Error;
    /// A human's decision: their choice, or a stop.
    fn decide(&mut self, asked: Asked<'_>) -> Result<Turn<Self::Stop>, Self::Error>;
    /// Hotseat: the screen goes to `paused.pause.to`, who has nothing to
    /// decide ([`Pause`]); `Continue` once they have passed it back, or
    /// the stop (the pause is then owed still).
    fn pause(&mut self, paused: Paused<'_>) -> Result<ControlFlow<Self::Stop>, Self::Error>;
    /// A choice (by `mover`, or chance when `None`) has applied: `state`
    /// is the position after it, its log entry stands and its narration is
    /// in `record`. `secret`: the other player is not told it was made
    /// (`DecisionKind::tells_the_other`: a pass in a reaction window, the
    /// token Nixon turns up); a front end shows it to the mover's seat only.
    fn applied(
        &mut self,
        state: &State,
        record: &Record,
        mover: Option<Side>,
        secret: bool,
    ) -> Result<(), Self::Error>;
}

/// Where [`Session::play`] left the game.
pub enum Ran<S> {
    /// The game is over.
    Over,
    /// The front end stopped it before a human's decision.
    Stopped(S),
}

/// Why the game could not be played on.
pub enum Failure<E> {
    /// The front end failed.
    Front(E),
    /// A choice failed to apply: the game is as it was before it (position
    /// and log; a human's decision may be taken again).
    Choice {
        /// Who chose it; `None`: chance.
        mover: Option<Side>,
        /// Whether a human did.
        human: bool,
        error: PlayError,
    },
    /// An agent's look-ahead reached a state where a card script fails: a
    /// state the game can reach.
    Lookahead { side: Side, error: ScriptError },
    /// An agent chose an option that is not legal.
    Illegal { side: Side },
    /// The position asks for a chance outcome, and the session draws none.
    NoChance,
}

impl Session {
    /// A new game dealt from `seed`: humans where `humans` says, `ai` on
    /// the other side; its setup is told to each seat.
    pub fn new_game(r: &Rules, seed: u64, humans: Humans, ai: Option<&AgentSpec>) -> Session {
        let mut events = Vec::new();
        let state = State::new_observed(r, seed, &mut events);
        let log = GameLog::new_game(r, seed, Seats::names(humans, ai));
        let narration = Narration::new_game(r, &events);
        Session::with(state, log, narration, Seats::new(humans, ai, seed))
    }

    /// A game played on from position `state` (named `name` in its log);
    /// `seed` seeds the agent.
    pub fn from_position(
        r: &Rules,
        state: State,
        name: &str,
        seed: u64,
        humans: Humans,
        ai: Option<&AgentSpec>,
    ) -> Session {
        let log = GameLog::from_position(r, &state, name, Seats::names(humans, ai));
        let narration = Narration::at(&state);
        Session::with(state, log, narration, Seats::new(humans, ai, seed))
    }

    fn with(state: State, log: GameLog, narration: Narration, seats: Seats) -> Session {
        Session {
            state,
            record: Record {
                log,
                narration,
                history: History::default(),
            },
            seats,
            chance: None,
            pause: None,
        }
    }

    /// Chance outcomes drawn from `rng` where a position asks for them.
    pub fn with_chance(mut self, rng: Pcg64Mcg) -> Session {
        self.chance = Some(rng);
        self
    }

    pub fn humans(&self) -> Humans {
        self.seats.humans()
    }

    /// The hotseat pause owed before the game goes on, if any ([`Pause`]).
    pub fn pause(&self) -> Option<Pause> {
        self.pause
    }

    /// `side` passes the screen back at the pause owed to them; `false`
    /// (nothing changed) if none is owed to `side`. The game goes on at the
    /// next [`Session::play`].
    pub fn end_pause(&mut self, side: Side) -> bool {
        if self.pause.is_some_and(|p| p.to == side) {
            self.pause = None;
            true
        } else {
            false
        }
    }

    /// Plays the game on the driver until it is over or `front` stops it
    /// at a human's decision.
    pub fn play<F: Front>(
        &mut self,
        r: &Rules,
        front: &mut F,
    ) -> Result<Ran<F::Stop>, Failure<F::Error>> {
        let humans = self.seats.humans();
        let (handover, players) = self.seats.players();
        let mut watch = Watch {
            r,
            humans,
            handover,
            record: &mut self.record,
            front,
            pause: &mut self.pause,
            actor: None,
            taking: None,
            events: Vec::new(),
            stop: None,
        };
        let state = &mut self.state;
        let played = match self.chance.as_mut() {
            Some(rng) => {
                let mut pick = |s: &State, options: &[Choice]| chance::draw(r, rng, s, options);
                play_out(r, state, players, Some(&mut pick), &mut watch)
            }
            None => play_out(r, state, players, None, &mut watch),
        };
        watch.ended(state, played)
    }

    /// Back to `side`'s previous decision, if nothing was learned since
    /// ([`History`]): how many choices were taken back, or why none (the
    /// game unchanged).
    pub fn undo(&mut self, side: Side) -> Result<usize, NoUndo> {
        let snap = self.record.history.undo(side)?;
        // The play that owed it may be taken back; and the player who
        // undoes holds the screen now anyway.
        self.pause = None;
        let log = &mut self.record.log;
        let taken_back = log.choices.len() - snap.choices;
        self.state = snap.state;
        log.choices.truncate(snap.choices);
        log.outcome = self.state.outcome();
        self.record.narration.back_to(&self.state, snap.narration);
        // The agents followed choices that are taken back.
        self.seats.forget();
        Ok(taken_back)
    }
}

/// The session as the driver's observer, for one [`Session::play`].
struct Watch<'a, F: Front> {
    r: &'a Rules,
    humans: Humans,
    /// Where a human's choice waits for their seat.
    handover: Handover,
    record: &'a mut Record,
    front: &'a mut F,
    /// The session's pause owed ([`Pause`]).
    pause: &'a mut Option<Pause>,
    /// Who decided last (the driver's errors name no side).
    actor: Option<Actor>,
    /// The choice being taken: its mover (recorded in the log, to be told
    /// once it applied) and whether it is a secret from the other player
    /// (`Front::applied`), and the state and pause owed before it,
    /// restored if it fails (the driver's apply does not roll back).
    taking: Option<Taking>,
    /// The events of the choice being taken.
    events: Vec<Event>,
    /// Why the front end stopped the game.
    stop: Option<F::Stop>,
}

/// A choice being taken (`Watch::taking`).
struct Taking {
    mover: Option<Side>,
    secret: bool,
    before: State,
    pause: Option<Pause>,
}

impl<F: Front> Observer for Watch<'_, F> {
    fn event(&mut self, e: Event) {
        // Told once the choice has applied: a choice that fails tells nothing.
        self.events.push(e);
    }

    fn unanswered(&mut self, s: &State, play: &PlayFrame) {
        if self.humans == Humans::Both && s.could_be_answered(self.r, play) {
            *self.pause = Some(Pause {
                to: play.player.other(),
                card: play.card,
            });
        }
    }
}

/// The session asks the front end before a human's decision (which may
/// stop the game), and records and tells each choice once it has applied.
impl<F: Front> Steps for Watch<'_, F> {
    type Error = F::Error;

    fn before(
        &mut self,
        s: &State,
        actor: Actor,
        options: &[Choice],
    ) -> Result<ControlFlow<()>, F::Error> {
        self.applied(s)?;
        if let ControlFlow::Break(()) = self.give_pause(s, actor)? {
            return Ok(ControlFlow::Break(()));
        }
        self.actor = Some(actor);
        let side = match actor {
            Actor::Player(side) if self.humans.plays(side) => side,
            _ => return Ok(ControlFlow::Continue(())),
        };
        let decision = Decision {
            actor,
            kind: s.decision_kind(self.r),
            options: options.to_vec(),
        };
        let asked = Asked {
            state: s,
            side,
            decision: &decision,
            record: self.record,
        };
        match self.front.decide(asked)? {
            Turn::Choose(c) => {
                self.record.history.push(Snapshot {
                    side,
                    state: s.clone(),
                    choices: self.record.log.choices.len(),
                    narration: self.record.narration.marks(),
                });
                self.handover.give(c);
                Ok(ControlFlow::Continue(()))
            }
            Turn::Stop(why) => {
                self.stop = Some(why);
                Ok(ControlFlow::Break(()))
            }
        }
    }

    fn chosen(&mut self, s: &State, actor: Actor, choice: Choice) -> Result<(), F::Error> {
        // Recorded in the position it is taken in; taken back if it fails.
        self.record.log.record(self.r, s, choice);
        let secret =
            matches!(actor, Actor::Player(_)) && !s.decision_kind(self.r).tells_the_other(choice);
        self.taking = Some(Taking {
            mover: actor.side(),
            secret,
            before: s.clone(),
            pause: *self.pause,
        });
        Ok(())
    }
}

impl<F: Front> Watch<'_, F> {
    /// The choice being taken has applied (`s` is the state after it): its
    /// log entry stands, undo's horizon and the seats learn what it showed,
    /// and the front end tells it.
    fn applied(&mut self, s: &State) -> Result<(), F::Error> {
        let Some(Taking {
            mover,
            secret,
            before,
            ..
        }) = self.taking.take()
        else {
            return Ok(());
        };
        self.record.log.outcome = s.outcome();
        let events = std::mem::take(&mut self.events);
        self.record
            .history
            .learned(mover, undo::revealed(&before, s, &events));
        self.record.narration.tell(self.r, &events);
        self.front.applied(s, self.record, mover, secret)
    }

    /// Before `actor`'s decision: the pause owed, given unless the screen
    /// goes to its player anyway (or a chance decision comes first: it is
    /// then owed still).
    fn give_pause(&mut self, s: &State, actor: Actor) -> Result<ControlFlow<()>, F::Error> {
        let Some(pause) = *self.pause else {
            return Ok(ControlFlow::Continue(()));
        };
        match actor {
            Actor::Chance => return Ok(ControlFlow::Continue(())),
            Actor::Player(side) if side == pause.to => {}
            Actor::Player(_) => {
                let paused = Paused {
                    state: s,
                    pause,
                    record: self.record,
                };
                if let ControlFlow::Break(why) = self.front.pause(paused)? {
                    self.stop = Some(why);
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        *self.pause = None;
        Ok(ControlFlow::Continue(()))
    }

    /// Where the driver left the game (`state`), as [`Session::play`]
    /// answers it.
    fn ended(
        mut self,
        state: &mut State,
        played: Result<Played, DriveError<F::Error>>,
    ) -> Result<Ran<F::Stop>, Failure<F::Error>> {
        match played {
            Ok(_) => {
                self.applied(state).map_err(Failure::Front)?;
                if state.outcome().is_some() {
                    // Nothing is left to hide once the game is over.
                    *self.pause = None;
                }
                Ok(match self.stop {
                    Some(why) => Ran::Stopped(why),
                    None => Ran::Over,
                })
            }
            Err(DriveError::Observer(e)) => Err(Failure::Front(e)),
            Err(DriveError::Play(error)) => {
                // Back to the position before the choice, and out of the log.
                let mover = self.taking.take().and_then(|taking| {
                    *state = taking.before;
                    *self.pause = taking.pause;
                    taking.mover
                });
                self.record.log.choices.pop();
                let human = mover.is_some_and(|side| self.humans.plays(side));
                if human {
                    // Nothing to take back: the decision is to take again.
                    self.record.history.pop();
                }
                Err(Failure::Choice {
                    mover,
                    human,
                    error,
                })
            }
            Err(DriveError::Lookahead { side, error, .. }) => Err(Failure::Lookahead {
                side,
                error: *error,
            }),
            Err(DriveError::Illegal { .. } | DriveError::NoSuchOption { .. }) => {
                Err(Failure::Illegal {
                    side: self.actor.and_then(|a| a.side()).unwrap_or(Side::Editor),
                })
            }
            Err(DriveError::NoChance) => Err(Failure::NoChance),
        }
    }
}
