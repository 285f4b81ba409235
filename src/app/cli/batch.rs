//! The options the batch commands share, declared once and flattened into
//! each command's arguments, so a flag means the same everywhere.

use super::{paths, values, CliResult};
use clap::Args;
use std::path::PathBuf;

/// Worker threads of a batch command (simulate, sweep, ladder, mine, soak).
#[derive(Args, Debug, Clone, Copy)]
pub struct Threads {
    /// Worker threads, 1 to 1024 (never more than the games); results do not depend on it [default: every core].
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = values::threads, allow_negative_numbers = true)]
    threads: Option<usize>,
}

impl Threads {
    /// The threads asked for, or one per core.
    pub fn count(self) -> usize {
        self.threads
            .unwrap_or_else(crate::lab::runner::cores)
            .max(1)
    }
}

/// Where the results of simulate, sweep and merge go besides the report:
/// JSON on stdout, a CSV table, a chart.
#[derive(Args, Debug)]
pub struct Outputs {
    /// Print the results as one JSON object (what `merge` and `sweep --merge` read).
    #[arg(long)]
    pub json: bool,
    /// Also write the results as a CSV table.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also draw the results with their intervals (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
}

impl Outputs {
    /// Refuses a CSV or chart path that cannot be written, before any game is played.
    pub fn check(&self) -> CliResult {
        paths::report_outputs(self.csv.as_deref(), self.chart.as_deref())
    }

    /// The files written, by the option naming each, for checking them
    /// against the command's inputs (`paths::distinct`).
    pub fn files(&self) -> Vec<(&'static str, &std::path::Path)> {
        let csv = self.csv.as_deref().map(|p| ("--csv", p));
        let chart = self.chart.as_deref().map(|p| ("--chart", p));
        csv.into_iter().chain(chart).collect()
    }
}
