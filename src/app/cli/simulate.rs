//! `watergate simulate`: many games between two agents, optionally compared
//! with another game (`--against`: the shipped game, a data folder or a
//! variant) on the same seeds, with honest statistics (`watergate merge`,
//! in `merge.rs`, combines shards of a larger run). The run and its report
//! are the lab's (`lab::report`); this module reads the options and prints.

use super::{CliError, CliResult};
use crate::lab::report::{default_games, Report, RunError, SimulateOptions, SimulateRun};
use crate::players::agent::AgentSpec;
use clap::Args;
use std::io::Write;
use std::path::Path;

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Number of games (with --precision: the most to play) [default: 1000; with --precision: 1000000].
    #[arg(short = 'n', long, value_name = "N", value_parser = super::values::count, allow_negative_numbers = true)]
    pub games: Option<u64>,
    /// Seed of the whole run: game i uses a seed derived from it (an agent
    /// with a time budget, ismcts:Nms, still plays differently on every run).
    #[arg(short, long, value_name = "SEED", default_value_t = 1, value_parser = super::values::seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// The Editor's agent: random, heuristic, ismcts:N (iterations; ismcts alone: ismcts:1000) or ismcts:Nms (a time budget: not repeatable under --seed); search options after it: ismcts:N:reuse, ismcts:N:settle, ismcts:N:playout=M (judge each playout after M decisions, 10 by default) or ismcts:N:playout=full (play it to the end), ismcts:N:threads=K.
    #[arg(long, value_name = "AGENT", default_value = "random", value_parser = super::values::one_agent)]
    pub editor: AgentSpec,
    /// Nixon's agent: random, heuristic, ismcts:N or ismcts:Nms.
    #[arg(long, value_name = "AGENT", default_value = "random", value_parser = super::values::one_agent)]
    pub nixon: AgentSpec,
    /// Also play the same games (same seeds, same agents) with another game
    /// and compare: `shipped` (the built-in game), `base` (this game without
    /// --variant), a data folder, or a variant file (applied to this game's data)
    /// [default: no comparison].
    #[arg(
        long,
        visible_alias = "baseline",
        value_name = "shipped|base|DIR|VARIANT.ron"
    )]
    pub against: Option<String>,
    /// Play until the 95% interval (of the difference, with --against; of the
    /// Editor's win rate otherwise) is at most this wide on each side, like 0.01
    /// [default: play exactly --games].
    #[arg(long, value_name = "HALF_WIDTH", value_parser = super::values::half_width, allow_negative_numbers = true)]
    pub precision: Option<f64>,
    /// Run only slice I of N of the games (1-based), for a sweep spread over machines [default: all].
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    #[command(flatten)]
    pub threads: super::batch::Threads,
    #[command(flatten)]
    pub outputs: super::batch::Outputs,
    /// Report the process's peak memory (Linux) at the end (`peak_memory_kib` in JSON).
    #[arg(long)]
    pub report_peak_memory: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
}

impl From<RunError> for CliError {
    fn from(e: RunError) -> CliError {
        match e {
            RunError::Data(d) => CliError::Data(d),
            RunError::Message(m) => CliError::Message(m),
            // A failing script is blamed (exit 3) with the game and the
            // command that replays it; anything else is the engine's failure.
            RunError::Failure {
                failure,
                context,
                message,
            } => match failure.script() {
                Some(e) => CliError::Script {
                    error: Box::new(e.clone()),
                    context,
                },
                None => CliError::Message(message),
            },
            RunError::Interrupted(m) => CliError::Interrupted(m),
        }
    }
}

/// `--shard I/N` of a run of `games`: the games of slice I (simulate and sweep).
pub(super) fn parse_shard(s: &str, games: u64) -> Result<crate::lab::report::Slice, CliError> {
    crate::lab::report::parse_shard(s, games).map_err(CliError::Message)
}

pub fn run(a: &SimulateArgs) -> CliResult {
    a.outputs.check()?;
    // The variant and a compared game's file are read: a CSV or chart
    // written there would replace them.
    let against = a.against.as_deref().map(Path::new);
    let inputs: Vec<(&str, &Path)> = [
        ("the --variant file", a.game.variant.as_deref()),
        ("the --against file", against),
    ]
    .into_iter()
    .filter_map(|(what, p)| Some((what, p?)))
    .collect();
    super::paths::distinct(&inputs, &a.outputs.files())?;
    let mut games = vec![("the game played", a.game.source())];
    if let Some(Ok(other)) = a
        .against
        .as_deref()
        .map(|spec| crate::lab::report::PlayedGame::against_source(spec, a.game.data.as_deref()))
    {
        games.push(("the --against game", other));
    }
    let games: Vec<_> = games.iter().map(|(what, g)| (*what, g)).collect();
    super::paths::outside_games(&games, &a.outputs.files())?;
    let games = a.games.unwrap_or(default_games(a.precision));
    let run = SimulateRun {
        game: a.game.source(),
        against: a.against.clone(),
        options: SimulateOptions {
            games,
            seed: a.seed,
            editor: a.editor.clone(),
            nixon: a.nixon.clone(),
            precision: a.precision,
            shard: a.shard.clone(),
            slice: None,
            threads: a.threads.count(),
        },
        report_peak_memory: a.report_peak_memory,
    };
    let loaded = run.load()?;
    super::note_timed_agents([&a.editor, &a.nixon]);
    // The slice's size for the bar (the run checks the options itself).
    let bar_games = match &a.shard {
        Some(s) => parse_shard(s, games.max(1))
            .map(|s| s.games)
            .unwrap_or(games),
        None => games,
    };
    // With --precision the total is the most games; the run may stop well short.
    let bar = if a.precision.is_some() {
        super::progress::Progress::up_to(bar_games, "games")
    } else {
        super::progress::Progress::new(bar_games, "games")
    };
    let stop = super::interrupt::watch();
    let sim = loaded.simulate(stop, Some(&|n| bar.set(n)));
    bar.finish();
    let sim = sim?;
    // The threads the run started (no more than its games), not those asked.
    let threads = sim.json["threads"]
        .as_u64()
        .map_or(run.options.threads, |t| t as usize);
    let (played, secs) = (sim.played, sim.seconds);
    outputs(
        &sim.report,
        a.outputs.csv.as_deref(),
        a.outputs.chart.as_deref(),
    )?;
    let mut out = super::output::stdout();
    if a.outputs.json {
        writeln!(out, "{}", sim.json)?;
    } else {
        if sim.interrupted {
            writeln!(
                out,
                "PARTIAL: interrupted ({cause}) after {played} of {} games; the figures below are for those games.",
                sim.slice.games,
                cause = super::interrupt::cause()
            )?;
        }
        write!(out, "{}", sim.report.text())?;
        // Either way: a run that stopped short of --games says why.
        match sim.precision {
            // --precision is a fraction; the report's rates are in
            // points: both are said.
            Some((asked, reached)) if reached > asked => writeln!(
                out,
                "  precision ±{asked} ({:.1} points) not reached: ±{reached:.4} ({:.1} points) after {played} games, the most allowed (--games)",
                100.0 * asked,
                100.0 * reached
            )?,
            Some((asked, reached)) => writeln!(
                out,
                "  precision ±{asked} ({:.1} points) reached: ±{reached:.4} ({:.1} points) after {played} games",
                100.0 * asked,
                100.0 * reached
            )?,
            None => {}
        }
        writeln!(
            out,
            "  {:.0} games/s on {} thread{} ({:.2} s)",
            played as f64 / secs.max(1e-9),
            threads,
            if threads == 1 { "" } else { "s" },
            secs
        )?;
        if let Some(kib) = sim.json.get("peak_memory_kib").and_then(|v| v.as_u64()) {
            writeln!(out, "  peak memory: {kib} KiB")?;
        }
    }
    if sim.interrupted {
        out.flush()?;
        return Err(CliError::Interrupted(format!(
            "the report covers the {played} games finished of {}",
            sim.slice.games
        )));
    }
    Ok(())
}

/// CSV and chart files, when asked for (`simulate` and `merge`).
pub(super) fn outputs(report: &Report, csv: Option<&Path>, chart: Option<&Path>) -> CliResult {
    if let Some(path) = csv {
        std::fs::write(path, report.csv())
            .map_err(|e| CliError::Message(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = chart {
        crate::lab::chart::draw(
            path,
            &report.result,
            &report.run.label,
            report.run.against.as_deref().unwrap_or(""),
        )
        .map_err(CliError::Message)?;
    }
    Ok(())
}
