//! The one game driver: `play_out` plays a game from a state to its end
//! (or until its observer stops it), one agent per side and, where the
//! state asks for explicit chance, a chance policy. The legal options are
//! computed once per step (`State::apply_next_observed` returns the next
//! step's), and the observer sees every step before the decision and after
//! the choice, and every engine event. Simulate, soak, check --deep, the
//! bench, the tests and the application's sessions (the terminal and the
//! studio's Play) play their games here; an observer that stops the game
//! before a decision is how a session leaves the driver for `undo`, `quit`
//! or a human the studio waits for. Every agent is told every choice
//! (`Agent::observe`), so a searching agent can keep its tree.

use crate::game::engine::{Actor, Choice, Observer, Picker, PlayError, ScriptError};
use crate::game::model::{BySide, Side};
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use crate::players::agent::Agent;
use std::convert::Infallible;
use std::ops::ControlFlow;

/// Watches a game played by [`play_out`]; it also hears the engine's
/// events (its [`Observer`] side). Both hooks may stop the game or fail it.
pub trait Steps: Observer {
    type Error;
    /// Whether the hooks below watch the decisions. Steps that only hear
    /// the engine's events say `false`: a game between blind agents (the
    /// random player) is then played on by place, with no list of options
    /// built (`State::play_by_place`), and the hooks are not called.
    const WATCHES_DECISIONS: bool = true;
    /// Before `actor` decides among `options` in `s`.
    fn before(
        &mut self,
        _s: &State,
        _actor: Actor,
        _options: &[Choice],
    ) -> Result<ControlFlow<()>, Self::Error> {
        Ok(ControlFlow::Continue(()))
    }
    /// After `actor` chose `choice` (a legal one) in `s`, before it applies.
    fn chosen(&mut self, _s: &State, _actor: Actor, _choice: Choice) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Steps that watch each choice as it is taken: `f(state before, actor,
/// choice)`.
pub struct OnChoice<F>(pub F);

impl<F> Observer for OnChoice<F> {}

impl<F: FnMut(&State, Actor, Choice)> Steps for OnChoice<F> {
    type Error = Infallible;
    fn chosen(&mut self, s: &State, actor: Actor, choice: Choice) -> Result<(), Infallible> {
        (self.0)(s, actor, choice);
        Ok(())
    }
}

/// Steps that watch each decision before it is taken: `f(state, actor,
/// options)`, which may stop the game.
pub struct OnDecision<F>(pub F);

impl<F> Observer for OnDecision<F> {}

impl<F: FnMut(&State, Actor, &[Choice]) -> ControlFlow<()>> Steps for OnDecision<F> {
    type Error = Infallible;
    fn before(
        &mut self,
        s: &State,
        actor: Actor,
        options: &[Choice],
    ) -> Result<ControlFlow<()>, Infallible> {
        Ok((self.0)(s, actor, options))
    }
}

/// Why a game could not be played on.
#[derive(Debug)]
pub enum DriveError<E> {
    /// Applying a choice failed (a card script, or the engine).
    Play(PlayError),
    /// A card script failed inside an agent's look-ahead: a state the game
    /// can reach, so it is reported rather than quietly steered round.
    Lookahead {
        side: Side,
        agent: String,
        error: Box<ScriptError>,
    },
    /// An agent chose something that is not an option.
    Illegal { agent: String, choice: Choice },
    /// An agent chose by place, and there is no option at that place.
    NoSuchOption {
        agent: String,
        index: usize,
        options: usize,
    },
    /// The state asked for a chance decision and there is no chance policy.
    NoChance,
    /// The observer failed the game.
    Observer(E),
}

/// How a game played by [`play_out`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Decisions applied.
    pub decisions: u64,
    /// Whether the observer stopped the game before its end.
    pub stopped: bool,
}

/// A chance policy: picks one of the chance options.
pub type Chance<'a> = &'a mut dyn FnMut(&State, &[Choice]) -> Choice;

/// Plays `s` on: `agents[side]` decides for each side from its
/// view, `chance` (if any) for chance. Ends when the game has an outcome or
/// the observer stops it.
pub fn play_out<A: Agent + ?Sized, O: Steps>(
    r: &Rules,
    s: &mut State,
    mut agents: BySide<&mut A>,
    chance: Option<Chance<'_>>,
    obs: &mut O,
) -> Result<Played, DriveError<O::Error>> {
    drive(r, s, &mut agents, chance, obs)
}

/// [`play_out`] with one agent deciding for both sides, from each side's
/// view in turn (a sampler's random player: one generator for the game).
pub fn play_out_alone<O: Steps>(
    r: &Rules,
    s: &mut State,
    agent: &mut dyn Agent,
    chance: Option<Chance<'_>>,
    obs: &mut O,
) -> Result<Played, DriveError<O::Error>> {
    drive(r, s, &mut Alone(agent), chance, obs)
}

/// Who decides for a side.
trait Seats {
    type Agent: Agent + ?Sized;
    fn seat(&mut self, side: Side) -> &mut Self::Agent;
    /// Whether every seat's agent is blind ([`Agent::is_blind`]).
    fn blind(&mut self) -> bool {
        Side::BOTH
            .into_iter()
            .all(|side| self.seat(side).is_blind())
    }
    /// Tells every agent (once each) of a choice applied to the game.
    fn observe(&mut self, actor: Actor, choice: Choice);
}

impl<A: Agent + ?Sized> Seats for BySide<&mut A> {
    type Agent = A;
    fn seat(&mut self, side: Side) -> &mut A {
        &mut *self[side]
    }
    fn observe(&mut self, actor: Actor, choice: Choice) {
        for agent in self.iter_mut() {
            agent.observe(actor, choice);
        }
    }
}

/// One agent in both seats.
struct Alone<'a>(&'a mut dyn Agent);

impl<'a> Seats for Alone<'a> {
    type Agent = dyn Agent + 'a;
    fn seat(&mut self, _: Side) -> &mut (dyn Agent + 'a) {
        &mut *self.0
    }
    fn observe(&mut self, actor: Actor, choice: Choice) {
        self.0.observe(actor, choice);
    }
}

/// The seats' blind agents as the engine's picker: a type rather than a
/// closure so that its `pick` can be marked to be inlined into the
/// engine's loop (`Picker` says why).
struct BlindPicks<'a, S>(&'a mut S);

impl<S: Seats> Picker for BlindPicks<'_, S> {
    #[inline(always)]
    fn pick(&mut self, actor: Actor, n: usize) -> usize {
        match actor {
            Actor::Player(side) => self
                .0
                .seat(side)
                .pick_blind(n)
                .expect("a blind agent picks by place"),
            Actor::Chance => unreachable!("a chance decision without explicit chance"),
        }
    }
}

/// The room made for a decision's options at the start of a game.
const OPTIONS_ROOM: usize = 64;

fn drive<S: Seats, O: Steps>(
    r: &Rules,
    s: &mut State,
    agents: &mut S,
    mut chance: Option<Chance<'_>>,
    obs: &mut O,
) -> Result<Played, DriveError<O::Error>> {
    // Room for any decision of the shipped game at once (a hand of cards
    // for value and action, or a token's pin spaces): one allocation a
    // game instead of one and then a few more as the list grew.
    let mut options = Vec::with_capacity(OPTIONS_ROOM);
    if !O::WATCHES_DECISIONS && !s.explicit_chance() && agents.blind() {
        // Only players decide (no chance decision without explicit
        // chance), each by place: nobody needs a view, the options or the
        // choices told, so the game is played on by place (issue 38).
        let mut pick = BlindPicks(agents);
        let decisions = s
            .play_by_place(r, u64::MAX, &mut pick, &mut options, obs)
            .map_err(DriveError::Play)?;
        return Ok(Played {
            decisions,
            stopped: false,
        });
    }
    let mut played = Played {
        decisions: 0,
        stopped: false,
    };
    let mut next = s.legal(r, &mut options);
    while let Some(actor) = next {
        if obs
            .before(s, actor, &options)
            .map_err(DriveError::Observer)?
            .is_break()
        {
            played.stopped = true;
            break;
        }
        let choice = match actor {
            Actor::Player(side) => {
                let agent = agents.seat(side);
                let picked = agent.decide_index(&View::new(r, s, side), &options);
                if let Some(error) = agent.take_script_error() {
                    return Err(DriveError::Lookahead {
                        side,
                        agent: agent.name(),
                        error: Box::new(error),
                    });
                }
                match picked {
                    Ok(i) if i < options.len() => options[i],
                    Ok(index) => {
                        return Err(DriveError::NoSuchOption {
                            agent: agent.name(),
                            index,
                            options: options.len(),
                        })
                    }
                    Err(choice) => {
                        return Err(DriveError::Illegal {
                            agent: agent.name(),
                            choice,
                        })
                    }
                }
            }
            Actor::Chance => match chance.as_mut() {
                Some(pick) => pick(s, &options),
                None => return Err(DriveError::NoChance),
            },
        };
        obs.chosen(s, actor, choice).map_err(DriveError::Observer)?;
        next = s
            .apply_next_observed(r, choice, &mut options, obs)
            .map_err(DriveError::Play)?;
        agents.observe(actor, choice);
        played.decisions += 1;
    }
    Ok(played)
}

#[cfg(all(test, feature = "shipped-data"))]
mod tests {
    use super::*;
    use crate::players::agent::RandomAgent;

    /// Counts the hooks and stops or fails at a given step.
    #[derive(Default)]
    struct Script {
        before: u64,
        chosen: u64,
        stop_at: Option<u64>,
        fail_at: Option<u64>,
    }

    impl Observer for Script {}

    impl Steps for Script {
        type Error = u64;
        fn before(
            &mut self,
            _: &State,
            _: Actor,
            options: &[Choice],
        ) -> Result<ControlFlow<()>, u64> {
            assert!(!options.is_empty(), "a decision always has an option");
            if self.fail_at == Some(self.before) {
                return Err(self.before);
            }
            if self.stop_at == Some(self.before) {
                return Ok(ControlFlow::Break(()));
            }
            self.before += 1;
            Ok(ControlFlow::Continue(()))
        }
        fn chosen(&mut self, _: &State, _: Actor, _: Choice) -> Result<(), u64> {
            self.chosen += 1;
            Ok(())
        }
    }

    fn game(obs: &mut Script) -> (State, Result<Played, DriveError<u64>>) {
        let r = crate::data::shipped();
        let mut s = State::new(&r, 7);
        let (mut a, mut b) = (RandomAgent::new(1), RandomAgent::new(2));
        let played = play_out(&r, &mut s, BySide::new(&mut a, &mut b), None, obs);
        (s, played)
    }

    #[test]
    fn a_game_is_played_to_its_outcome_with_every_step_observed() {
        let mut obs = Script::default();
        let (s, played) = game(&mut obs);
        let played = played.expect("a random game plays to its end");
        assert!(s.outcome().is_some(), "R10: the game ends with a winner");
        assert!(!played.stopped);
        assert!(played.decisions > 0);
        assert_eq!(obs.before, played.decisions);
        assert_eq!(obs.chosen, played.decisions);
    }

    #[test]
    fn the_observer_can_stop_the_game_before_a_decision() {
        let mut obs = Script {
            stop_at: Some(10),
            ..Default::default()
        };
        let (s, played) = game(&mut obs);
        let played = played.expect("stopping is not an error");
        assert_eq!(
            played,
            Played {
                decisions: 10,
                stopped: true
            }
        );
        assert!(s.outcome().is_none());
    }

    #[test]
    fn the_observer_can_fail_the_game() {
        let mut obs = Script {
            fail_at: Some(3),
            ..Default::default()
        };
        let (_, played) = game(&mut obs);
        assert!(matches!(played, Err(DriveError::Observer(3))), "{played:?}");
        assert_eq!(obs.chosen, 3);
    }

    /// A random player that counts the decisions it takes for each side.
    struct Both {
        inner: RandomAgent,
        decided: [u64; 2],
    }

    impl Agent for Both {
        fn name(&self) -> String {
            "both".into()
        }
        fn decide(&mut self, view: &View, options: &[Choice]) -> Choice {
            self.decided[view.side().index()] += 1;
            self.inner.decide(view, options)
        }
    }

    #[test]
    fn one_agent_alone_decides_for_both_sides_from_each_sides_view() {
        let r = crate::data::shipped();
        let mut s = State::new(&r, 7);
        let mut both = Both {
            inner: RandomAgent::new(1),
            decided: [0, 0],
        };
        let mut obs = Script::default();
        let played = play_out_alone(&r, &mut s, &mut both, None, &mut obs)
            .expect("a random game plays to its end");
        assert!(s.outcome().is_some(), "R10: the game ends with a winner");
        assert!(both.decided.iter().all(|n| *n > 0), "{:?}", both.decided);
        assert_eq!(both.decided.iter().sum::<u64>(), played.decisions);
        assert_eq!(obs.chosen, played.decisions);
    }

    /// Always chooses something that is never an option.
    struct Cheat;

    impl Agent for Cheat {
        fn name(&self) -> String {
            "cheat".into()
        }
        fn decide(&mut self, _: &View, _: &[Choice]) -> Choice {
            Choice::Chance(7)
        }
    }

    /// Plays a fresh game with `agent` in both seats, which must be refused
    /// at its first decision with nothing applied; returns the refusal.
    fn refused_at_once(agent: &mut dyn Agent) -> DriveError<u64> {
        let r = crate::data::shipped();
        let mut s = State::new(&r, 7);
        let before = s.clone();
        let mut obs = Script::default();
        // One agent in both seats: the first decision is refused anyway.
        let played = play_out_alone(&r, &mut s, agent, None, &mut obs);
        assert_eq!(obs.chosen, 0);
        assert!(s == before, "nothing was applied");
        played.expect_err("the agent's answer is refused")
    }

    #[test]
    fn a_choice_that_is_not_an_option_is_refused_before_it_applies() {
        let refused = refused_at_once(&mut Cheat);
        assert!(
            matches!(&refused, DriveError::Illegal { agent, .. } if agent == "cheat"),
            "{refused:?}"
        );
    }

    /// Chooses by place, one past the last option.
    struct PastTheEnd;

    impl Agent for PastTheEnd {
        fn name(&self) -> String {
            "past the end".into()
        }
        fn decide(&mut self, _: &View, options: &[Choice]) -> Choice {
            options[0]
        }
        fn decide_index(&mut self, _: &View, options: &[Choice]) -> Result<usize, Choice> {
            Ok(options.len())
        }
    }

    #[test]
    fn a_place_past_the_options_is_refused_before_anything_applies() {
        let refused = refused_at_once(&mut PastTheEnd);
        assert!(
            matches!(&refused, DriveError::NoSuchOption { agent, index, options }
                if agent == "past the end" && index == options),
            "{refused:?}"
        );
    }

    #[test]
    fn the_random_player_takes_the_same_option_by_place_as_by_choice() {
        let r = crate::data::shipped();
        let s = State::new(&r, 7);
        let mut options = Vec::new();
        let Some(Actor::Player(side)) = s.legal(&r, &mut options) else {
            panic!("a game starts with a player's decision");
        };
        let (mut by_choice, mut by_place) = (RandomAgent::new(3), RandomAgent::new(3));
        for _ in 0..50 {
            let view = View::new(&r, &s, side);
            let choice = by_choice.decide(&view, &options);
            let place = by_place.decide_index(&view, &options).expect("a place");
            assert_eq!(options[place], choice);
        }
    }
}
