//! Who makes the choices: the agents (random, heuristic, ISMCTS), the
//! exact solver, and the clock their time limits read.

#![warn(missing_docs)]

// The layers below, named as in one crate: `crate::game::…`.
use watergate_core::game;

pub mod agent;
pub mod clock;
pub mod solve;
