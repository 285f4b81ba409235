//! Players that decide from a [`View`] alone. One interface for all: the
//! random player here, and the stronger ones that build on it.

pub mod eval;
pub mod heuristic;
pub mod ismcts;
pub mod random;

use crate::game::engine::{Actor, Choice, PlayError, ScriptError};
use crate::game::model::Side;
use crate::game::view::View;

/// A player. `decide` is called only when the view's player must choose,
/// with the legal options; it returns one of them.
pub trait Agent: Send {
    /// The agent as `AgentSpec` names it (`random`, `ismcts:1000`): what
    /// reports and logs print for the player.
    fn name(&self) -> String;
    /// One of `options` (the legal options of the decision `view` shows,
    /// two or more), chosen from what the view lets this side know.
    fn decide(&mut self, view: &View, options: &[Choice]) -> Choice;
    /// The option to take, by its place in `options`: the door the game
    /// driver uses. By default it asks [`Agent::decide`] and finds that
    /// choice among the options (`Err` with the choice when it is none of
    /// them); an agent that chooses by place answers with the place, so the
    /// driver compares no choices (a random game's every decision).
    fn decide_index(&mut self, view: &View, options: &[Choice]) -> Result<usize, Choice> {
        let choice = self.decide(view, options);
        options.iter().position(|o| *o == choice).ok_or(choice)
    }
    /// A card script that failed while the agent looked ahead, taken once.
    /// Look-ahead states are states the game can reach, so the caller
    /// reports it (the script is to blame) instead of letting the agent
    /// steer round the card without a word.
    fn take_script_error(&mut self) -> Option<ScriptError> {
        None
    }
    /// A choice was applied to the game: by `actor`, this agent's own
    /// included. Drivers tell every agent of every choice, in order (every
    /// player's choice in this game is public, R5.14; a chance outcome is
    /// told as `Actor::Chance` and an agent must not read it). An agent
    /// that keeps state between decisions follows the game with it.
    fn observe(&mut self, _actor: Actor, _choice: Choice) {}
    /// The game went back or jumped (an undo): whatever the agent kept of
    /// the game's course no longer holds.
    fn forget(&mut self) {}
    /// Whether the agent picks an option by its place alone, from the
    /// number of options, reading neither the view nor the options nor
    /// the choices it is told (the random player): a driver may then play
    /// on by place (`State::play_by_place`), asking [`Agent::pick_blind`]
    /// with no view made and no list of options built.
    fn is_blind(&self) -> bool {
        false
    }
    /// A blind agent's pick: the place of the option it takes among `n`
    /// (two or more). `None` from an agent that is not blind.
    fn pick_blind(&mut self, _n: usize) -> Option<usize> {
        None
    }
}

/// Keeps the first script error of a look-ahead (other errors there are
/// the option's own business: the agent just avoids it).
pub(crate) fn note_script_error(slot: &mut Option<ScriptError>, e: PlayError) {
    if let PlayError::Script(s) = e {
        slot.get_or_insert(*s);
    }
}

pub use heuristic::HeuristicAgent;
pub use ismcts::{Budget, IsmctsAgent, Playout, Search, DEFAULT_PLAYOUT};
pub use random::RandomAgent;

/// An agent named on the command line: `random`, `heuristic`, or
/// `ismcts:1000` (iterations per decision; `ismcts` alone is
/// `ismcts:1000`) / `ismcts:200ms`, optionally
/// followed by search options: `ismcts:1000:reuse:threads=2`,
/// `ismcts:300:playout=full` (see [`Search`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// `random`: a uniformly random option.
    Random,
    /// `heuristic`: rules of thumb through a quick judgement of the position.
    Heuristic,
    /// `ismcts:N`, `ismcts:Nms` and their options: information-set Monte
    /// Carlo tree search.
    Ismcts(Search),
}

impl AgentSpec {
    /// The opponent a human plays when they name none, at the terminal and
    /// in the studio alike: two trees of 5000 iterations, about 10 ms a
    /// decision on two cores. Ten times the search of `ismcts:1000:threads=2`
    /// is 169 Elo stronger (AI_STRENGTH.md: 240 games, it wins about 70 % of
    /// them), where four times more again gains too little to tell (26
    /// Elo, −50 to +102). A fixed count, not the machine's, so a seed gives
    /// the same game everywhere.
    pub fn default_opponent() -> AgentSpec {
        AgentSpec::Ismcts(Search {
            threads: 2,
            ..Budget::Iterations(10_000).into()
        })
    }

    /// The plain search with `budget`.
    pub fn ismcts(budget: Budget) -> AgentSpec {
        AgentSpec::Ismcts(Search::from(budget))
    }

    /// Reads an agent as the command line names it (`random`, `heuristic`,
    /// `ismcts`, `ismcts:1000`, `ismcts:250ms`, `ismcts:1000:threads=2`);
    /// what is wrong, in words, if it cannot.
    pub fn parse(s: &str) -> Result<AgentSpec, String> {
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (s, None),
        };
        match (name.to_ascii_lowercase().as_str(), arg) {
            ("random", None) => Ok(AgentSpec::Random),
            ("heuristic", None) => Ok(AgentSpec::Heuristic),
            ("random" | "heuristic", Some(_)) => Err(format!("`{name}` takes no budget")),
            ("ismcts", None) => Ok(AgentSpec::ismcts(Budget::Iterations(1000))),
            ("ismcts", Some(b)) => Search::parse(b).map(AgentSpec::Ismcts),
            _ => Err(format!(
                "unknown agent `{s}`: expected `random`, `heuristic`, or `ismcts:N` (N iterations per decision, `ismcts` alone 1000, or `ismcts:Nms` milliseconds; options `:reuse`, `:settle`, `:playout=N` or `:playout=full`, `:threads=N`)"
            )),
        }
    }

    /// A fresh agent for one game, seeded for that game.
    pub fn build(&self, seed: u64, _side: Side) -> Box<dyn Agent> {
        match self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
            AgentSpec::Heuristic => Box::new(HeuristicAgent::new(seed)),
            AgentSpec::Ismcts(s) => Box::new(IsmctsAgent::with_search(*s, seed)),
        }
    }

    /// A fresh agent for one game, seeded for that game, held for a
    /// seat of a simulation ([`SeatAgent`]).
    pub fn build_seat(&self, seed: u64, side: Side) -> SeatAgent {
        match self {
            AgentSpec::Random => SeatAgent::Random(RandomAgent::new(seed)),
            _ => SeatAgent::Other(self.build(seed, side)),
        }
    }

    /// The iteration or time budget, for a searching agent.
    pub fn budget(&self) -> Option<Budget> {
        match self {
            AgentSpec::Ismcts(s) => Some(s.budget),
            _ => None,
        }
    }
}

/// An agent in a seat of a simulation, the random player held by value.
/// A random game asks its players at every decision (to decide, for a
/// look-ahead's script error, and to be told of the choice): through a
/// `Box<dyn Agent>` each was a call the compiler could not see into, and
/// the random player's answers are a few instructions (issue 16).
pub enum SeatAgent {
    /// The random player, called without dispatch.
    Random(RandomAgent),
    /// Any other agent.
    Other(Box<dyn Agent>),
}

impl Agent for SeatAgent {
    fn name(&self) -> String {
        match self {
            SeatAgent::Random(a) => a.name(),
            SeatAgent::Other(a) => a.name(),
        }
    }
    #[inline]
    fn decide(&mut self, view: &View, options: &[Choice]) -> Choice {
        match self {
            SeatAgent::Random(a) => a.decide(view, options),
            SeatAgent::Other(a) => a.decide(view, options),
        }
    }
    #[inline]
    fn decide_index(&mut self, view: &View, options: &[Choice]) -> Result<usize, Choice> {
        match self {
            SeatAgent::Random(a) => a.decide_index(view, options),
            SeatAgent::Other(a) => a.decide_index(view, options),
        }
    }
    #[inline]
    fn take_script_error(&mut self) -> Option<ScriptError> {
        match self {
            SeatAgent::Random(a) => a.take_script_error(),
            SeatAgent::Other(a) => a.take_script_error(),
        }
    }
    #[inline]
    fn observe(&mut self, actor: Actor, choice: Choice) {
        match self {
            SeatAgent::Random(a) => a.observe(actor, choice),
            SeatAgent::Other(a) => a.observe(actor, choice),
        }
    }
    fn forget(&mut self) {
        match self {
            SeatAgent::Random(a) => a.forget(),
            SeatAgent::Other(a) => a.forget(),
        }
    }
    fn is_blind(&self) -> bool {
        match self {
            SeatAgent::Random(a) => a.is_blind(),
            SeatAgent::Other(a) => a.is_blind(),
        }
    }
    #[inline]
    fn pick_blind(&mut self, n: usize) -> Option<usize> {
        match self {
            SeatAgent::Random(a) => a.pick_blind(n),
            SeatAgent::Other(a) => a.pick_blind(n),
        }
    }
}

impl std::fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Heuristic => f.write_str("heuristic"),
            AgentSpec::Ismcts(s) => write!(f, "ismcts:{s}"),
        }
    }
}
