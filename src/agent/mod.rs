//! Players that decide from a [`View`] alone. One interface for all: the
//! random player here, and the stronger ones that build on it.

pub mod random;

use crate::engine::Choice;
use crate::model::Side;
use crate::view::View;

/// A player. `decide` is called only when the view's player must choose,
/// with the legal options; it returns one of them.
pub trait Agent: Send {
    fn name(&self) -> String;
    fn decide(&mut self, view: &View, options: &[Choice]) -> Choice;
}

pub use random::RandomAgent;

/// An agent named on the command line: `random`, later with a budget
/// (`ismcts:1000`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    Random,
}

impl AgentSpec {
    pub fn parse(s: &str) -> Result<AgentSpec, String> {
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (s, None),
        };
        match (name.to_ascii_lowercase().as_str(), arg) {
            ("random", None) => Ok(AgentSpec::Random),
            ("random", Some(_)) => Err("`random` takes no budget".into()),
            _ => Err(format!("unknown agent `{s}`: expected `random`")),
        }
    }

    /// A fresh agent for one game, seeded for that game.
    pub fn build(&self, seed: u64, _side: Side) -> Box<dyn Agent> {
        match self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
        }
    }
}

impl std::fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
        }
    }
}
