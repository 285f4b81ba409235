//! A game being played in the studio, and the table of them.
//!
//! A session holds the full state of its game: an `app::session::Session`,
//! the terminal's too, which plays it on the game driver, logs it, narrates
//! it to each seat and keeps what undo may take back; the studio adds the
//! seats' tokens, the secret seed and the step a request must name. What
//! leaves it for a seat is built by `seat.rs` from that seat's `View`. Each
//! human seat has its own secret token; the session id alone only says
//! which game. Sessions are bounded in number and expire when idle.

use super::seat::{seat_table, Faces, SeatTable};
use crate::app::session::answer::{self, Reading};
use crate::app::session::seats::Humans;
use crate::app::session::undo::NoUndo;
use crate::app::session::{self as game, Asked, Failure, Front, Paused, Record, Turn};
use crate::game::engine::{Actor, Choice, Decision, PlayError};
use crate::game::model::{BySide, Side};
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use crate::players::agent::AgentSpec;
use serde::Serialize;
use std::collections::HashMap;
use std::convert::Infallible;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many games at once, and how long an untouched one lives.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_games: usize,
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_games: 256,
            idle: Duration::from_secs(60 * 60),
        }
    }
}

/// Who plays the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Two humans at one screen, handing over between seats.
    Hotseat,
    /// One human; an agent plays the other side.
    Against { human: Side, ai: AgentSpec },
}

impl Mode {
    pub fn human(&self, side: Side) -> bool {
        self.humans().plays(side)
    }

    fn humans(&self) -> Humans {
        match self {
            Mode::Hotseat => Humans::Both,
            Mode::Against { human, .. } => Humans::One(*human),
        }
    }

    /// Whether an agent of this game may think for long (a search): its
    /// moves then run on the blocking pool, never on an async worker. The
    /// random and heuristic agents answer in microseconds.
    pub fn thinks(&self) -> bool {
        matches!(self.ai(), Some(AgentSpec::Ismcts(_)))
    }

    fn ai(&self) -> Option<&AgentSpec> {
        match self {
            Mode::Hotseat => None,
            Mode::Against { ai, .. } => Some(ai),
        }
    }
}

/// One game.
pub struct Session {
    pub rules: Arc<Rules>,
    /// The game: its position, its log, what each seat was told, what undo
    /// may take back, and its players; the same as the terminal's.
    pub game: game::Session,
    /// The deal. A secret until the game is over unless the player chose
    /// it (`seed_chosen`): the seed derives every hidden card and token,
    /// so a seat that learned it could deal the same game in hotseat and
    /// look (issue 40). Read it through [`Session::shown_seed`].
    seed: u64,
    seed_chosen: bool,
    /// Played on from a saved position, not dealt from `seed`: no seed to
    /// show (the position carries its own generator).
    from_position: bool,
    pub mode: Mode,
    /// Each human seat's secret, by `Side::index()`.
    tokens: BySide<Option<String>>,
    /// Counts every change (choices and undos): a request naming an older
    /// step is about a position that is gone.
    pub step: u64,
    /// Each human seat's table after every choice taken since that seat
    /// last chose (the other side's, chance's, and its own last one), so
    /// its page can play the other side's turn back step by step.
    moves: BySide<Vec<Move>>,
}

impl Session {
    /// Whether the game has ended (R8): it may then give way to a new one
    /// when the studio is full.
    pub fn is_over(&self) -> bool {
        self.game.state.outcome().is_some()
    }
}

/// The most moves kept for a seat: an agent's turn and the evaluation
/// after it take a few dozen choices at most; a longer run (a hotseat seat
/// that waits for many of the other's) keeps its latest ones, and the page
/// plays back from there.
pub const MAX_MOVES: usize = 64;

/// One choice as a seat saw it: the table after it, built from the seat's
/// `View` like every view it is sent (`seat::seat_table`), and how much
/// narration the seat had then.
#[derive(Serialize)]
pub struct Move {
    /// The session's step after the choice.
    pub step: u64,
    /// Who chose: a side, or `None` for chance.
    pub mover: Option<Side>,
    /// How many narration lines the seat had been told after the choice.
    pub lines: usize,
    #[serde(flatten)]
    pub table: SeatTable,
}

/// Why a choice was not taken: the game is unchanged.
pub enum Refusal {
    /// Not this seat's decision, no such option, or the engine says no.
    Refused(String),
    /// A card script failed (the data is to blame, not the player).
    Broken(String),
}

/// The studio as the session's front end: a request brings at most one
/// human's answer, and the game stops at the next human decision to wait
/// for theirs.
struct Waiting<'a> {
    answer: Option<Choice>,
    /// The session's step, counted at each choice.
    step: &'a mut u64,
    rules: &'a Rules,
    /// The cards' faces the kept tables share (`seat::Faces`).
    faces: Arc<Faces>,
    /// The human seats, whose tables are kept at each choice.
    humans: [Option<Side>; 2],
    moves: &'a mut BySide<Vec<Move>>,
}

impl Front for Waiting<'_> {
    type Stop = ();
    type Error = Infallible;

    fn decide(&mut self, _: Asked<'_>) -> Result<Turn<()>, Infallible> {
        Ok(match self.answer.take() {
            Some(c) => Turn::Choose(c),
            None => Turn::Stop(()),
        })
    }

    /// The game waits for the player owed the pause to pass
    /// (`Session::choose`; their seat's view asks it: `seat_view`).
    fn pause(&mut self, _: Paused<'_>) -> Result<ControlFlow<()>, Infallible> {
        Ok(ControlFlow::Break(()))
    }

    /// A seat keeps the table after each choice it is told of. A secret
    /// choice (a pass in a reaction window, which its player is offered
    /// only when holding a card that could answer: R6) is a move of the
    /// mover's seat only; to the other seat its effects (the play it let
    /// resolve) belong to the move before it, whose table and narration it
    /// brings up to date, as if no window had opened. An agent's secret
    /// choice is no step either: the other seat would otherwise see its
    /// step go up by two, or a move with nothing told, exactly when the
    /// agent held such a card.
    fn applied(
        &mut self,
        state: &State,
        record: &Record,
        mover: Option<Side>,
        secret: bool,
    ) -> Result<(), Infallible> {
        let human_mover = mover.filter(|side| self.humans.contains(&Some(*side)));
        if !secret || human_mover.is_some() {
            *self.step += 1;
        }
        for seat in self.humans.into_iter().flatten() {
            let lines = record.narration.lines(seat).len();
            let table = seat_table(self.rules, &self.faces, &View::new(self.rules, state, seat));
            let kept = &mut self.moves[seat];
            if secret && mover != Some(seat) {
                if let Some(last) = kept.last_mut() {
                    last.lines = lines;
                    last.table = table;
                }
                continue;
            }
            if kept.len() == MAX_MOVES {
                kept.remove(0);
            }
            kept.push(Move {
                step: *self.step,
                mover,
                lines,
                table,
            });
        }
        Ok(())
    }
}

impl Session {
    /// A new game dealt from `seed`; `chosen`: the player named the seed
    /// (it may then be shown at once).
    pub fn new(rules: Arc<Rules>, seed: u64, chosen: bool, mode: Mode) -> Session {
        let game = game::Session::new_game(&rules, seed, mode.humans(), mode.ai());
        let tokens = BySide::from_fn(|side| mode.human(side).then(super::secret));
        Session {
            rules,
            game,
            seed,
            seed_chosen: chosen,
            from_position: false,
            mode,
            tokens,
            step: 0,
            moves: BySide::default(),
        }
    }

    /// A game played on from `state`, a saved position named `name` (a
    /// scenario file the player opened); `seed` seeds the agent and any
    /// chance outcome the position asks for, as the terminal's
    /// `play --scenario` does.
    pub fn from_position(
        rules: Arc<Rules>,
        mut state: State,
        name: &str,
        seed: u64,
        mode: Mode,
    ) -> Session {
        use rand::SeedableRng;
        // Random events are drawn in play (a solver's position may ask
        // for them to be decided).
        state.set_explicit_chance(false);
        let game =
            game::Session::from_position(&rules, state, name, seed, mode.humans(), mode.ai())
                .with_chance(rand_pcg::Pcg64Mcg::seed_from_u64(
                    crate::lab::sim::game_seed(seed, 3),
                ));
        let tokens = BySide::from_fn(|side| mode.human(side).then(super::secret));
        Session {
            rules,
            game,
            seed,
            seed_chosen: false,
            from_position: true,
            mode,
            tokens,
            step: 0,
            moves: BySide::default(),
        }
    }

    /// Whether the game was played on from a saved position.
    pub fn is_from_position(&self) -> bool {
        self.from_position
    }

    /// The seat a token opens, if any (compared in constant time).
    pub fn seat(&self, token: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|side| {
            self.tokens[*side]
                .as_deref()
                .is_some_and(|t| same(t.as_bytes(), token.as_bytes()))
        })
    }

    pub fn token(&self, side: Side) -> Option<&str> {
        self.tokens[side].as_deref()
    }

    /// The side whose decision is pending, if a player's: the hotseat
    /// player owed a pause first (`game::Pause`).
    pub fn to_move(&self) -> Option<Side> {
        if let Some(pause) = self.game.pause() {
            return Some(pause.to);
        }
        let mut options = Vec::new();
        match self.game.state.legal(&self.rules, &mut options) {
            Some(Actor::Player(side)) => Some(side),
            _ => None,
        }
    }

    /// The seed, when a seat may see it: the player chose it, or the game
    /// is over (then it is shown so the game can be replayed and shared).
    pub fn shown_seed(&self) -> Option<u64> {
        (!self.from_position && (self.seed_chosen || self.game.state.outcome().is_some()))
            .then_some(self.seed)
    }

    /// Whether `side` has a decision of theirs it may take back.
    pub fn can_undo(&self, side: Side) -> bool {
        self.game.record.history.target(side).is_ok()
    }

    /// Why `side` may not undo now, in the words a refusal would use.
    pub fn why_no_undo(&self, side: Side) -> Option<String> {
        let target = self.game.record.history.target(side);
        target.err().map(|e| e.to_string())
    }

    /// Whether `side` may download the whole position as a scenario file:
    /// a saved scenario holds everything (hands, decks, the bag's order,
    /// face-down tokens), so only when nothing is secret from anyone at
    /// this screen — a hotseat game, whose two players share the screen
    /// and the file — or once the game is over (ARCHITECTURE.md, "The
    /// studio").
    pub fn can_save(&self) -> bool {
        self.mode == Mode::Hotseat || self.game.state.outcome().is_some()
    }

    /// Reads an answer of `side`: an option's index, or its notation.
    pub fn parse(&self, side: Side, answer: &Answer) -> Result<Choice, Refusal> {
        let state = &self.game.state;
        let Some(d) = self.decision(side) else {
            return Err(Refusal::Refused(match (state.outcome(), self.to_move()) {
                (Some(_), _) => "the game is over".to_string(),
                (None, Some(other)) => format!("it is {other}'s decision, not yours"),
                (None, None) => "there is no decision to take".to_string(),
            }));
        };
        let reading = Reading {
            first: 0,
            explain: Some(side),
        };
        answer::choice(&self.rules, state, answer.read(), &d.options, reading)
            .map_err(|refused| Refusal::Refused(refused.to_string()))
    }

    /// `side`'s decision, if it is theirs: the hotseat pause owed to them
    /// (`game::Pause`, asked as the window it stands for), or the game's.
    /// None while a pause is owed to the other side.
    pub fn decision(&self, side: Side) -> Option<Decision> {
        match self.game.pause() {
            Some(pause) if pause.to == side => Some(pause.decision()),
            Some(_) => None,
            None => View::new(&self.rules, &self.game.state, side).decision(),
        }
    }

    /// Takes a human's choice, then lets the agents play until a human
    /// decides again or the game ends. When the human's choice is refused
    /// the game is unchanged.
    pub fn choose(&mut self, side: Side, answer: &Answer) -> Result<(), Refusal> {
        let choice = self.parse(side, answer)?;
        if self.game.end_pause(side) {
            // Passed back: the game goes on to the decision it waited at.
            return self.play(None);
        }
        // The seat saw the table it chose on: what it has not seen starts
        // with this choice.
        let kept = std::mem::take(&mut self.moves[side]);
        let played = self.play(Some(choice));
        // A refused choice changed nothing: the seat has still not seen
        // what it had not seen.
        if played.is_err() && self.moves[side].is_empty() {
            self.moves[side] = kept;
        }
        played
    }

    /// The moves `side` has not seen: those after step `after`, oldest
    /// first (empty when the seat has no moves kept after it).
    pub fn moves_after(&self, side: Side, after: u64) -> &[Move] {
        let kept = &self.moves[side];
        let first = kept.partition_point(|m| m.step <= after);
        &kept[first..]
    }

    /// The agents' moves until a human decides or the game ends. Blocking
    /// (an ISMCTS agent thinks for a while): called off the async runtime.
    pub fn run_agents(&mut self) -> Result<(), Refusal> {
        self.play(None)
    }

    /// Plays the game on, with `answer` for the pending human decision,
    /// until a human decides (again) or the game ends.
    fn play(&mut self, answer: Option<Choice>) -> Result<(), Refusal> {
        let humans = Side::BOTH.map(|side| self.mode.human(side).then_some(side));
        let mut waiting = Waiting {
            answer,
            step: &mut self.step,
            rules: &self.rules,
            faces: Faces::of(&self.rules),
            humans,
            moves: &mut self.moves,
        };
        let failure = match self.game.play(&self.rules, &mut waiting) {
            Ok(_) => return Ok(()),
            Err(failure) => failure,
        };
        Err(match failure {
            Failure::Front(never) => match never {},
            Failure::Choice {
                human: true, error, ..
            } => match error {
                PlayError::Script(e) => Refusal::Broken(e.to_string()),
                e => Refusal::Refused(e.to_string()),
            },
            Failure::Choice { mover, error, .. } => {
                let who = mover.map_or("chance".to_string(), |side| format!("{side}'s agent"));
                Refusal::Broken(format!("{who}'s choice failed: {error}"))
            }
            Failure::Lookahead { side, error } => Refusal::Broken(format!(
                "{side}'s agent found a failing card script while looking ahead: {error}"
            )),
            Failure::Illegal { side } => {
                Refusal::Broken(format!("{side}'s agent chose an option that is not legal"))
            }
            Failure::NoChance => Refusal::Broken(
                "the position asks for a chance outcome, which play never does".into(),
            ),
        })
    }

    /// Back to `side`'s previous decision, if nothing was learned since
    /// (`session::undo`); refused with the reason otherwise, the game
    /// unchanged.
    pub fn undo(&mut self, side: Side) -> Result<(), NoUndo> {
        self.game.undo(side)?;
        self.step += 1;
        // The moves kept lead to positions that are gone.
        self.moves = BySide::default();
        Ok(())
    }
}

/// A human's answer as a request sends it: the index of an option, or a
/// choice in notation.
#[derive(Clone, Debug)]
pub enum Answer {
    Index(usize),
    Text(String),
}

impl Answer {
    /// The answer to read ([`answer::choice`]).
    fn read(&self) -> answer::Answer<'_> {
        match self {
            Answer::Index(i) => answer::Answer::Number(*i as i128),
            Answer::Text(text) => answer::Answer::Notation(text),
        }
    }
}

/// Equal byte strings, in time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

struct Entry {
    session: Arc<Mutex<Session>>,
    used: Instant,
}

/// The games being played: bounded in number, forgotten when idle.
pub struct Sessions {
    pub limits: Limits,
    table: Mutex<HashMap<String, Entry>>,
}

/// Why a game could not be opened.
pub enum Full {
    Full(usize),
}

impl Sessions {
    pub fn new(limits: Limits) -> Sessions {
        Sessions {
            limits,
            table: Mutex::new(HashMap::new()),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        // A panic while holding the table lock leaves a usable table.
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores a new game under a fresh random id, unless the table is full
    /// (after forgetting the idle ones).
    pub fn insert(&self, session: Session) -> Result<String, Full> {
        let now = Instant::now();
        let mut t = self.table();
        let idle = self.limits.idle;
        t.retain(|_, e| now.duration_since(e.used) < idle);
        if t.len() >= self.limits.max_games {
            // A finished game gives way to a new one, the one looked at
            // longest ago first: its page can still show it until then,
            // but it holds no play a player would lose. One being read
            // right now (its lock taken) is left alone.
            let finished = t
                .iter()
                .filter(|(_, e)| e.session.try_lock().is_ok_and(|s| s.is_over()))
                .min_by_key(|(_, e)| e.used)
                .map(|(id, _)| id.clone());
            match finished {
                Some(id) => {
                    t.remove(&id);
                }
                None => return Err(Full::Full(self.limits.max_games)),
            }
        }
        let id = super::secret();
        t.insert(
            id.clone(),
            Entry {
                session: Arc::new(Mutex::new(session)),
                used: now,
            },
        );
        Ok(id)
    }

    /// The game `id`, marked as used now.
    pub fn get(&self, id: &str) -> Option<Arc<Mutex<Session>>> {
        let mut t = self.table();
        let e = t.get_mut(id)?;
        e.used = Instant::now();
        Some(Arc::clone(&e.session))
    }

    pub fn remove(&self, id: &str) -> bool {
        self.table().remove(id).is_some()
    }

    pub fn len(&self) -> usize {
        self.table().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets the games untouched for longer than the idle limit, as of
    /// `now`; returns how many.
    pub fn expire(&self, now: Instant) -> usize {
        let mut t = self.table();
        let before = t.len();
        let idle = self.limits.idle;
        t.retain(|_, e| now.saturating_duration_since(e.used) < idle);
        before - t.len()
    }
}

/// Forgets idle games every so often, for as long as the server runs.
pub async fn expire_loop(sessions: Arc<Sessions>) {
    let every =
        (sessions.limits.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
    loop {
        tokio::time::sleep(every).await;
        sessions.expire(Instant::now());
    }
}
