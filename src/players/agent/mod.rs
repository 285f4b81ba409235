//! Players that decide from a [`View`] alone. One interface for all: the
//! random player here, and the stronger ones that build on it.

pub mod eval;
pub mod heuristic;
pub mod ismcts;
pub mod random;

use crate::game::engine::{Choice, PlayError, ScriptError};
use crate::game::model::Side;
use crate::game::view::View;

/// A player. `decide` is called only when the view's player must choose,
/// with the legal options; it returns one of them.
pub trait Agent: Send {
    fn name(&self) -> String;
    fn decide(&mut self, view: &View, options: &[Choice]) -> Choice;
    /// A card script that failed while the agent looked ahead, taken once.
    /// Look-ahead states are states the game can reach, so the caller
    /// reports it (the script is to blame) instead of letting the agent
    /// steer round the card without a word.
    fn take_script_error(&mut self) -> Option<ScriptError> {
        None
    }
}

/// Keeps the first script error of a look-ahead (other errors there are
/// the option's own business: the agent just avoids it).
pub(crate) fn note_script_error(slot: &mut Option<ScriptError>, e: PlayError) {
    if let PlayError::Script(s) = e {
        slot.get_or_insert(s);
    }
}

pub use heuristic::HeuristicAgent;
pub use ismcts::{Budget, IsmctsAgent};
pub use random::RandomAgent;

/// An agent named on the command line: `random`, `heuristic`, or
/// `ismcts:1000` (iterations per decision) / `ismcts:200ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    Random,
    Heuristic,
    Ismcts(Budget),
}

impl AgentSpec {
    pub fn parse(s: &str) -> Result<AgentSpec, String> {
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (s, None),
        };
        match (name.to_ascii_lowercase().as_str(), arg) {
            ("random", None) => Ok(AgentSpec::Random),
            ("heuristic", None) => Ok(AgentSpec::Heuristic),
            ("random" | "heuristic", Some(_)) => Err(format!("`{name}` takes no budget")),
            ("ismcts", None) => Ok(AgentSpec::Ismcts(Budget::Iterations(1000))),
            ("ismcts", Some(b)) => Budget::parse(b).map(AgentSpec::Ismcts),
            _ => Err(format!(
                "unknown agent `{s}`: expected `random`, `heuristic`, or `ismcts:N` (N iterations per decision, or `ismcts:Nms` milliseconds)"
            )),
        }
    }

    /// A fresh agent for one game, seeded for that game.
    pub fn build(&self, seed: u64, _side: Side) -> Box<dyn Agent> {
        match self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
            AgentSpec::Heuristic => Box::new(HeuristicAgent::new(seed)),
            AgentSpec::Ismcts(b) => Box::new(IsmctsAgent::new(*b, seed)),
        }
    }
}

impl std::fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Heuristic => f.write_str("heuristic"),
            AgentSpec::Ismcts(b) => write!(f, "ismcts:{b}"),
        }
    }
}
