//! Watergate as data: a rules engine whose cards, board, tokens and numbers
//! are RON files and whose card actions are rhai scripts.
//!
//! See `ARCHITECTURE.md` for the map of modules and their invariants.

pub mod data;
pub mod diag;
pub mod model;
pub mod rules;
pub mod script;
