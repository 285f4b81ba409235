//! Watergate as data: a rules engine whose cards, board, tokens and numbers
//! are RON files and whose card actions are rhai scripts.
//!
//! See `ARCHITECTURE.md` for the map of modules and their invariants.
//!
//! Features: `cli` (default; the command line, the bench, and through it
//! `charts` and `shipped-data`). Without them the library is the rules
//! core and its neighbours, on serde, ron, rhai, rand and thiserror.

pub mod agent;
#[cfg(feature = "cli")]
pub mod bench;
pub mod board_shape;
#[cfg(feature = "charts")]
pub mod chart;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod clock;
pub mod data;
pub mod deep_check;
pub mod diag;
pub mod driver;
pub mod engine;
#[cfg(feature = "shipped-data")]
pub mod fuzz;
pub mod ladder;
pub mod log;
pub mod model;
pub mod narrate;
pub mod puzzle;
pub mod render;
pub mod rules;
pub mod runner;
pub mod scenario;
pub mod script;
#[cfg(feature = "server")]
pub mod server;
pub mod sim;
pub mod soak;
pub mod solve;
pub mod state;
pub mod stats;
#[cfg(feature = "cli")]
pub mod sweep;
pub mod terminal;
pub mod variant;
pub mod view;
pub mod wording;
