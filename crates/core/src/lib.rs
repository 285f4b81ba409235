//! Watergate's rules core: the game as data (`game`), the sandboxed script
//! host its card actions run on (`script`), and the loader that builds the
//! rules from RON files and rhai scripts (`data`), on the diagnostics of
//! `diag`.
//!
//! The modules are layers, lowest first; each may use only the layers
//! below it (`tests/layers.rs`): `diag`, `game`, `script`, `data`. The core
//! knows nothing of the front ends: no command line, no server, no
//! terminal, no threads of its own.
//!
//! Feature: `shipped-data` embeds the card set of `cards/`, `scripts/` and
//! `scenarios/` (`data::DataSet::embedded`, `data::shipped`).

pub mod data;
pub mod diag;
pub mod game;
pub mod script;
