//! Who makes the choices: the agents (random, heuristic, ISMCTS), the
//! exact solver, and the clock their time limits read.

pub mod agent;
pub mod clock;
pub mod solve;
