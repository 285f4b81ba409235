//! Watergate as data: a rules engine whose cards, board, tokens and numbers
//! are RON files and whose card actions are rhai scripts.
//!
//! See `ARCHITECTURE.md` for the map of modules and their invariants.

pub mod agent;
pub mod bench;
pub mod board_shape;
pub mod chart;
pub mod check;
pub mod cli;
pub mod data;
pub mod diag;
pub mod engine;
pub mod fuzz;
pub mod ladder;
pub mod log;
pub mod model;
pub mod narrate;
pub mod render;
pub mod rules;
pub mod scenario;
pub mod script;
pub mod sim;
pub mod soak;
pub mod solve;
pub mod state;
pub mod stats;
pub mod sweep;
pub mod terminal;
pub mod variant;
pub mod view;
