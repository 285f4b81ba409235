//! Timing two builds of `watergate` on the same random games
//! (`watergate bench --compare-build OTHER`).
//!
//! Why paired rounds: on a shared machine one run drifts from the next by
//! ±10 %, and this machine kind has had phases a third apart lasting
//! minutes (BENCHMARKS.md), so two figures measured minutes apart compare
//! the machine's phases more than the builds. Here each round runs both
//! builds back to back (alternating which goes first), and the figure is
//! the median of the rounds' ratios: a drift slower than a round cancels.
//! Each run is a child process (`simulate` on one thread), so both builds
//! are timed the same way, their start and load of the game included.

use crate::data::GameSource;
use crate::stats::Runs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// What to run in each round.
#[derive(Clone, Debug)]
pub struct ComparePlan {
    /// This build: a `watergate` binary (the running one, for the bench).
    pub this: PathBuf,
    /// The other build: a `watergate` binary.
    pub other: PathBuf,
    /// Rounds, each running both builds once.
    pub rounds: u64,
    /// Random games per run (`simulate --games`).
    pub games: u64,
    /// The run's seed (`simulate --seed`): both builds play the same games.
    pub seed: u64,
    /// The game both builds play (passed on as `--data`/`--variant`).
    pub game: GameSource,
}

/// The rounds' timings, in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub games: u64,
    /// Per round: (this build, the other build).
    pub rounds: Vec<(f64, f64)>,
    /// The first line where the two builds' reports differ (the timing
    /// line left out), or `None` when they agree: same games, same
    /// statistics.
    pub reports_differ: Option<String>,
}

/// Runs the rounds. An error names the build that failed and what it
/// said.
pub fn compare(plan: &ComparePlan) -> Result<Comparison, String> {
    let this = plan.this.as_path();
    let mut rounds = Vec::with_capacity(plan.rounds as usize);
    let mut reports = None;
    for round in 0..plan.rounds {
        // Alternating which goes first cancels a drift within a round too.
        let (this_time, other_time, this_report, other_report) = if round % 2 == 0 {
            let (t, a) = timed_run(this, plan)?;
            let (o, b) = timed_run(&plan.other, plan)?;
            (t, o, a, b)
        } else {
            let (o, b) = timed_run(&plan.other, plan)?;
            let (t, a) = timed_run(this, plan)?;
            (t, o, a, b)
        };
        rounds.push((this_time, other_time));
        reports.get_or_insert((this_report, other_report));
    }
    let reports_differ = reports.and_then(|(a, b)| first_difference(&a, &b));
    Ok(Comparison {
        games: plan.games,
        rounds,
        reports_differ,
    })
}

/// Whether the other program is a build of watergate and plays at all
/// (one game), before the rounds.
pub fn check(plan: &ComparePlan) -> Result<(), String> {
    is_watergate(&plan.other)?;
    let one = ComparePlan {
        games: 1,
        ..plan.clone()
    };
    timed_run(&plan.other, &one).map(|_| ())
}

/// Refuses a program whose `--version` does not name watergate: another
/// program that ignores its arguments and exits 0 (`/bin/true`) would
/// otherwise be timed, and the bench would print a ratio for it.
fn is_watergate(exe: &Path) -> Result<(), String> {
    let out = Command::new(exe)
        .arg("--version")
        .env("NO_COLOR", "1")
        .output()
        .map_err(|e| format!("cannot run `{}`: {e}", exe.display()))?;
    let said = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        crate::game::wording::clipped(text.lines().next().unwrap_or("").trim())
    };
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let err = err.trim();
        return Err(format!(
            "`{} --version` failed ({}){}{}",
            exe.display(),
            out.status,
            if err.is_empty() { "" } else { ": " },
            err
        ));
    }
    let version = said(&out.stdout);
    if !version.starts_with("watergate ") {
        return Err(format!(
            "`{}` is not a build of watergate: its --version printed {version:?}, not \"watergate <version>\"",
            exe.display()
        ));
    }
    Ok(())
}

/// One `simulate` run of `exe`: its wall time and its report.
fn timed_run(exe: &Path, plan: &ComparePlan) -> Result<(f64, String), String> {
    let mut cmd = Command::new(exe);
    cmd.args(["simulate", "--quiet", "--threads", "1"])
        .arg("--games")
        .arg(plan.games.to_string())
        .arg("--seed")
        .arg(plan.seed.to_string())
        .env("NO_COLOR", "1");
    if let Some(d) = &plan.game.data {
        cmd.arg("--data").arg(d);
    }
    if let Some(v) = &plan.game.variant {
        cmd.arg("--variant").arg(v);
    }
    let start = Instant::now();
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run `{}`: {e}", exe.display()))?;
    let elapsed = start.elapsed().as_secs_f64();
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr);
        let said = said.trim();
        return Err(format!(
            "`{} simulate` failed ({}){}{}",
            exe.display(),
            out.status,
            if said.is_empty() { "" } else { ": " },
            said
        ));
    }
    Ok((elapsed, String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// The report without its timing line (`… games/s on N thread(s) …`),
/// the one line that differs from run to run.
fn without_timing(report: &str) -> impl Iterator<Item = &str> {
    report.lines().filter(|l| !l.contains("games/s on "))
}

fn first_difference(a: &str, b: &str) -> Option<String> {
    let (mut a, mut b) = (without_timing(a), without_timing(b));
    loop {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (x, y) if x == y => continue,
            (x, y) => {
                return Some(format!(
                    "this build: {:?}; the other: {:?}",
                    x.unwrap_or("(end of report)").trim(),
                    y.unwrap_or("(end of report)").trim()
                ))
            }
        }
    }
}

impl Comparison {
    /// Per round, the other build's time over this build's: above 1 when
    /// this build is the faster.
    pub fn ratios(&self) -> Runs {
        Runs(self.rounds.iter().map(|(t, o)| o / t).collect())
    }

    /// The median of the rounds' ratios: how many times as fast this
    /// build is.
    pub fn median_ratio(&self) -> f64 {
        self.ratios().median()
    }

    /// Each build's times, (this build's, the other's).
    fn times(&self) -> (Runs, Runs) {
        (
            Runs(self.rounds.iter().map(|r| r.0).collect()),
            Runs(self.rounds.iter().map(|r| r.1).collect()),
        )
    }

    /// The ratio of the two builds' best times.
    pub fn best_ratio(&self) -> f64 {
        let (this, other) = self.times();
        other.lowest() / this.lowest()
    }

    /// Games per second of (this build, the other build), from their
    /// median times (process start and load of the game included).
    pub fn games_per_second(&self) -> (f64, f64) {
        let (this, other) = self.times();
        let g = self.games as f64;
        (g / this.median(), g / other.median())
    }

    /// The bench's lines.
    pub fn describe(&self, other: &Path) -> Vec<String> {
        let ratios = self.ratios();
        let (this_gps, other_gps) = self.games_per_second();
        let mut lines = vec![
            format!(
                "this build against {}: {:.2}x as fast (median of {} paired rounds of {} random games on one thread: {:.2} to {:.2}; best times {:.2}x)",
                other.display(),
                ratios.median(),
                ratios.0.len(),
                self.games,
                ratios.lowest(),
                ratios.highest(),
                self.best_ratio()
            ),
            format!(
                "  games per second, process start and load included: this build {this_gps:.0}, the other {other_gps:.0}"
            ),
        ];
        lines.push(match &self.reports_differ {
            None => "  same games: the two builds' reports agree line for line (timing left out)"
                .to_string(),
            Some(d) => format!(
                "  NOT the same games or statistics, so the ratio compares different work; first difference: {d}"
            ),
        });
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figure_is_the_median_of_the_rounds_ratios() {
        let c = Comparison {
            games: 1000,
            rounds: vec![(1.0, 3.0), (1.0, 2.0), (2.0, 9.0)],
            reports_differ: None,
        };
        assert_eq!(c.ratios().0, vec![3.0, 2.0, 4.5]);
        assert_eq!(c.median_ratio(), 3.0);
        // Best times: 1.0 for this build, 2.0 for the other.
        assert_eq!(c.best_ratio(), 2.0);
        assert_eq!(c.games_per_second(), (1000.0, 1000.0 / 3.0));
    }

    #[test]
    fn reports_are_compared_without_their_timing_line() {
        let a = "100 games\n  Editor wins 3\n  5000 games/s on 1 thread (0.02 s)\n";
        let b = "100 games\n  Editor wins 3\n  7000 games/s on 1 thread (0.01 s)\n";
        assert_eq!(first_difference(a, b), None);
        let c = "100 games\n  Editor wins 4\n  7000 games/s on 1 thread (0.01 s)\n";
        assert_eq!(
            first_difference(a, c),
            Some(r#"this build: "Editor wins 3"; the other: "Editor wins 4""#.to_string())
        );
        assert!(first_difference(a, "100 games\n").is_some());
    }
}
