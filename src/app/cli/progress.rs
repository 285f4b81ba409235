//! Progress bars for long runs, on stderr: drawn only when stderr is a
//! terminal and `--quiet` was not given, so pipes, logs and tests see
//! nothing. One style for every command: position, total, rate and ETA.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

static QUIET: AtomicBool = AtomicBool::new(false);

/// `--quiet`: no bar, whatever stderr is.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether bars are drawn: stderr is a terminal and `--quiet` is off.
pub fn enabled() -> bool {
    !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// A bar over `total` units of work (`unit`: "games", "positions"…), or
/// nothing when bars are off. Cheap to update from many threads.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar with rate and time left.
    pub fn new(total: u64, unit: &str) -> Progress {
        Progress::with_template(
            total,
            &format!("{{bar:30}} {{human_pos}}/{{human_len}} {unit}, {{rate}}/s, {{eta}} left"),
        )
    }

    /// A bar whose total is a limit the work may stop well short of (the
    /// solver's node limit): the time shown is the most that is left.
    pub fn up_to(limit: u64, unit: &str) -> Progress {
        Progress::with_template(
            limit,
            &format!(
                "{{bar:24}} {{human_pos}} of ≤{{human_len}} {unit}, {{rate}}/s, ≤{{eta}} left"
            ),
        )
    }

    /// A bar over a few long steps, naming the step under way.
    pub fn with_message(total: u64, unit: &str) -> Progress {
        Progress::with_template(
            total,
            &format!("{{bar:30}} {{pos}}/{{len}} {unit}, now: {{msg}}, {{eta}} left"),
        )
    }

    /// No bar at all (for library callers and quiet runs).
    pub fn hidden() -> Progress {
        Progress { bar: None }
    }

    fn with_template(total: u64, template: &str) -> Progress {
        if !enabled() {
            return Progress::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                // Whole units per second: "5838/s", not "5,837.6232/s".
                .with_key(
                    "rate",
                    |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0}", s.per_sec());
                    },
                ),
        );
        // Redrawn on a clock too, so rate and time left move during long steps.
        bar.enable_steady_tick(std::time::Duration::from_millis(250));
        Progress { bar: Some(bar) }
    }

    /// Where the work stands (units done so far).
    pub fn set(&self, done: u64) {
        if let Some(b) = &self.bar {
            b.set_position(done);
        }
    }

    /// A new total (a run that learns it plays fewer games).
    pub fn set_total(&self, total: u64) {
        if let Some(b) = &self.bar {
            b.set_length(total);
        }
    }

    /// A word after the bar (which run of a sweep, which phase of a bench).
    pub fn set_message(&self, m: impl Into<String>) {
        if let Some(b) = &self.bar {
            b.set_message(m.into());
        }
    }

    /// Removes the bar, so the report that follows starts on a clean line.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
