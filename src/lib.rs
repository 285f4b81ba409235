//! Watergate as data: a rules engine whose cards, board, tokens and numbers
//! are RON files and whose card actions are rhai scripts.
//!
//! This crate is the application: the command line, the terminal game and
//! the studio (`app`). The layers below it are crates of their own
//! (`crates/`), re-exported here under their layer names, lowest first
//! (`ARCHITECTURE.md` has the table; each crate may use only those below
//! it, which Cargo enforces, and `tests/repo/layers.rs` checks the modules
//! inside the core):
//!
//! | layer | crate | here |
//! |---|---|---|
//! | foundation, rules core, scripting, data | `watergate-core` | [`diag`], [`game`], [`script`], [`data`] |
//! | formats | `watergate-formats` | [`formats`] |
//! | players | `watergate-players` | [`players`] |
//! | lab | `watergate-lab` | [`lab`] |
//! | applications | this crate | [`app`] |
//!
//! Features: `cli` (default; the command line, the bench, and through it
//! `server`, `charts` and `shipped-data`).

pub use watergate_core::{data, diag, game, script};
pub use watergate_formats as formats;
pub use watergate_lab as lab;
pub use watergate_players as players;

pub mod app;
