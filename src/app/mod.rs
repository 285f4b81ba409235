//! The applications: the command line, the terminal game, attempting a
//! puzzle against the solver, and the studio (a local web application).

#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod diff;
pub mod puzzle;
#[cfg(feature = "server")]
pub mod secret;
#[cfg(feature = "server")]
pub mod server;
pub mod session;
pub mod terminal;
