//! The applications: the command line, the terminal game, and attempting
//! a puzzle against the solver.

#[cfg(feature = "cli")]
pub mod cli;
pub mod puzzle;
pub mod terminal;
