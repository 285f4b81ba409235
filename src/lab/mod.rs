//! The lab: playing many games and judging them — the one game driver
//! and parallel runner, simulation, statistics, the soak, the ladder and
//! sweeps, the fuzzer, the deep check, the bench (and its comparison of
//! two builds) and charts.

#[cfg(feature = "cli")]
pub mod bench;
#[cfg(feature = "charts")]
pub mod chart;
#[cfg(feature = "cli")]
pub mod compare_build;
pub mod deep_check;
pub mod driver;
#[cfg(feature = "shipped-data")]
pub mod fuzz;
pub mod ladder;
pub mod runner;
pub mod sim;
pub mod soak;
pub mod stats;
#[cfg(feature = "cli")]
pub mod sweep;
