//! The lab: playing many games and judging them — the one game driver
//! and parallel runner, simulation, statistics, the soak, the ladder and
//! sweeps, the fuzzer, the deep check, the bench (and its comparison of
//! two builds) and charts.

// The layers below, named as in one crate: `crate::game::…`.
use watergate_core::{data, diag, game};
use watergate_formats as formats;
use watergate_players as players;

pub mod bench;
pub mod chart;
pub mod compare_build;
pub mod deep_check;
pub mod driver;
#[cfg(feature = "shipped-data")]
pub mod fuzz;
pub mod ladder;
pub mod mine;
pub mod report;
pub mod runner;
pub mod sim;
pub mod soak;
pub mod stats;
pub mod sweep;
