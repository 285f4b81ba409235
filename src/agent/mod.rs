//! Players that decide from a [`View`] alone. One interface for all: the
//! random player here, and the stronger ones that build on it.

pub mod random;

use crate::engine::Choice;
use crate::view::View;

/// A player. `decide` is called only when the view's player must choose,
/// with the legal options; it returns one of them.
pub trait Agent: Send {
    fn name(&self) -> String;
    fn decide(&mut self, view: &View, options: &[Choice]) -> Choice;
}

pub use random::RandomAgent;
