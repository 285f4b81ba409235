//! `watergate simulate`: many games between two agents, with statistics.

use super::{CliError, CliResult};
use crate::agent::AgentSpec;
use crate::model::{Side, WinCause};
use crate::rules::Rules;
use crate::sim::{simulate, SimConfig, Tally};
use clap::Args;
use serde_json::json;
use std::io::IsTerminal;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Seed of the whole run: game i uses a seed derived from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The Editor's agent: random.
    #[arg(long, default_value = "random", value_parser = AgentSpec::parse)]
    pub editor: AgentSpec,
    /// Nixon's agent: random.
    #[arg(long, default_value = "random", value_parser = AgentSpec::parse)]
    pub nixon: AgentSpec,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of a report.
    #[arg(long)]
    pub json: bool,
    /// Report the process's peak memory (Linux) at the end (`peak_memory_kib` in JSON).
    #[arg(long)]
    pub report_peak_memory: bool,
}

pub fn run(r: &Rules, a: &SimulateArgs) -> CliResult {
    if a.games == 0 {
        return Err(CliError::Message("--games must be at least 1".into()));
    }
    let threads = a.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let cfg = SimConfig {
        games: a.games,
        seed: a.seed,
        first_game: 0,
        editor: a.editor.clone(),
        nixon: a.nixon.clone(),
        threads,
    };
    let bar = (std::io::stderr().is_terminal() && a.games >= 2000).then(|| {
        let b = indicatif::ProgressBar::new(a.games);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {per_sec}, {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let start = Instant::now();
    let tally = simulate(r, &cfg, &|n| {
        if let Some(b) = &bar {
            if n % 64 == 0 || n == a.games {
                b.set_position(n);
            }
        }
    })
    .map_err(|e| CliError::Message(e.to_string()))?;
    let secs = start.elapsed().as_secs_f64();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let gps = tally.games as f64 / secs.max(1e-9);
    if a.json {
        let mut v = report_json(&tally, &cfg, secs);
        if a.report_peak_memory {
            v["peak_memory_kib"] = json!(crate::bench::peak_rss_kib());
        }
        println!("{v}");
    } else {
        print_report(&tally, &cfg, secs, gps);
    }
    Ok(())
}

pub fn report_json(t: &Tally, cfg: &SimConfig, secs: f64) -> serde_json::Value {
    json!({
        "games": t.games,
        "seed": cfg.seed,
        "editor": cfg.editor.to_string(),
        "nixon": cfg.nixon.to_string(),
        "editor_wins": t.editor_wins,
        "nixon_wins": t.nixon_wins,
        "win_causes": t.win_causes,
        "mean_rounds": t.mean_rounds(),
        "sd_rounds": t.sd_rounds(),
        "rounds_histogram": t.rounds_histogram,
        "decisions": t.decisions,
        "cards": t.cards,
        "threads": cfg.threads,
        "seconds": secs,
        "games_per_second": t.games as f64 / secs.max(1e-9),
    })
}

fn print_report(t: &Tally, cfg: &SimConfig, secs: f64, gps: f64) {
    let pct = |n: u64| 100.0 * n as f64 / t.games.max(1) as f64;
    println!(
        "{} games, seed {}: Editor ({}) vs Nixon ({})",
        t.games, cfg.seed, cfg.editor, cfg.nixon
    );
    for side in [Side::Editor, Side::Nixon] {
        println!(
            "  {:<7} wins {:>8}  ({:5.1}%)",
            side.name(),
            t.wins(side),
            pct(t.wins(side))
        );
    }
    println!("  how games were won:");
    for cause in WinCause::ALL {
        let n = t.win_causes.get(cause.key()).copied().unwrap_or(0);
        println!("    {:<32} {:>8}  ({:5.1}%)", cause.describe(), n, pct(n));
    }
    println!(
        "  rounds: mean {:.2}, sd {:.2}, from {} to {}",
        t.mean_rounds(),
        t.sd_rounds(),
        t.rounds_histogram.keys().next().copied().unwrap_or(0),
        t.rounds_histogram.keys().last().copied().unwrap_or(0)
    );
    println!(
        "  {:.0} games/s on {} thread{} ({:.2} s)",
        gps,
        cfg.threads,
        if cfg.threads == 1 { "" } else { "s" },
        secs
    );
}
