//! Watergate as data: a rules engine whose cards, board, tokens and numbers
//! are RON files and whose card actions are rhai scripts.
//!
//! The modules are layers, lowest first; each may use only the layers
//! below it (`ARCHITECTURE.md` has the table, `tests/layers.rs` enforces
//! it):
//!
//! | layer | module |
//! |---|---|
//! | foundation | [`diag`] |
//! | rules core | [`game`] |
//! | scripting | [`script`] |
//! | data | [`data`] |
//! | formats | [`formats`] |
//! | players | [`players`] |
//! | lab | [`lab`] |
//! | applications | [`app`] |
//!
//! Features: `cli` (default; the command line, the bench, and through it
//! `charts` and `shipped-data`). Without them the library is the rules
//! core and its neighbours, on serde, ron, rhai, rand and thiserror.

pub mod app;
pub mod data;
pub mod diag;
pub mod formats;
pub mod game;
pub mod lab;
pub mod players;
pub mod script;
