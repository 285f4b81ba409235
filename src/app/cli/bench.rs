//! `watergate bench`: speed and memory, the figures of BENCHMARKS.md, and
//! optionally this build timed against another.

use super::{output, progress, values, CliError, CliResult};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `watergate bench`'s arguments.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Smaller runs, for a quick look.
    #[arg(long)]
    pub quick: bool,
    /// Also measure the peak memory of an N-game simulation (BENCHMARKS.md uses 1000000) [default: not measured].
    #[arg(long, value_name = "N", value_parser = values::count, allow_negative_numbers = true)]
    pub peak_memory_games: Option<u64>,
    /// Also time this build against another build of watergate (its binary): both play the same random games on one thread, in paired rounds, and the bench prints how many times as fast this build is [default: not compared].
    #[arg(long, value_name = "WATERGATE")]
    pub compare_build: Option<PathBuf>,
    /// Rounds of --compare-build, each running both builds once (alternating which goes first).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = values::count, allow_negative_numbers = true, requires = "compare_build")]
    pub compare_rounds: u64,
    /// Random games per run of --compare-build.
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = values::count, allow_negative_numbers = true, requires = "compare_build")]
    pub compare_games: u64,
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// Runs the measurements (and the build comparison) and prints them.
pub fn run(a: &BenchArgs) -> CliResult {
    let game = &a.game;
    let ds = game.dataset()?;
    let compare = match &a.compare_build {
        Some(other) => Some(crate::lab::compare_build::ComparePlan {
            this: std::env::current_exe()
                .map_err(|e| CliError::from(format!("cannot find this program's own file: {e}")))?,
            other: other.clone(),
            rounds: a.compare_rounds,
            games: a.compare_games,
            seed: crate::lab::bench::SEED,
            game: game.source(),
        }),
        None => None,
    };
    // A build that cannot play is refused before the bench's
    // minute of measurements, not after.
    if let Some(plan) = &compare {
        crate::lab::compare_build::check(plan)
            .map_err(|e| CliError::from(format!("--compare-build: {e}")))?;
    }
    let cfg = crate::lab::bench::BenchConfig {
        quick: a.quick,
        peak_memory_games: a.peak_memory_games,
        game: game.source(),
    };
    let steps = crate::lab::bench::steps(&cfg) + u64::from(compare.is_some());
    let bar = progress::Progress::with_message(steps, "measurements");
    let mut out = output::stdout();
    crate::lab::bench::run_with(&mut out, &cfg, &ds, &|done, next| {
        bar.set(done);
        bar.set_message(next);
    })
    .map_err(CliError::from)?;
    if let Some(plan) = &compare {
        bar.set(steps - 1);
        bar.set_message("build comparison");
        let comparison = crate::lab::compare_build::compare(plan)
            .map_err(|e| CliError::from(format!("--compare-build: {e}")))?;
        for line in comparison.describe(&plan.other) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}
