//! The `watergate` command line. Each subcommand lives in its own module;
//! this one parses arguments, loads the data and reports errors.

mod cards;
mod check;
mod ladder;
mod play;
mod replay;
mod scenario;
mod simulate;
mod solve;
mod sweep;

use crate::data::{self, DataSet};
use crate::diag::Diagnostics;
use crate::rules::Rules;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "watergate",
    version,
    about = "Watergate (Matthias Cramer, 2019) as data: check the card files, simulate, play and solve",
    after_help = "The game's data (cards/, scripts/) is built into the binary; `--data DIR` loads an edited copy (see `watergate export`)."
)]
pub struct Cli {
    /// Load the game from this data root (holding cards/ and scripts/) instead of the built-in copy.
    #[arg(long, global = true, value_name = "DIR")]
    pub data: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Load and validate the data (and a variant); print every problem as path:line:col: message.
    Check {
        /// Also apply and check this house-rule variant.
        #[arg(long, value_name = "FILE")]
        variant: Option<PathBuf>,
    },
    /// List the player cards as a table, or as JSON.
    Cards {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Write the built-in data to DIR for a designer to edit (then use --data DIR).
    Export {
        dir: PathBuf,
        /// Overwrite files in a non-empty directory.
        #[arg(long)]
        force: bool,
    },
    /// Print the card-script API: every function a card script may call.
    ScriptApi,
    /// Play many games between two agents and print statistics.
    Simulate(simulate::SimulateArgs),
    /// Rate agents by a round robin on both sides (Bradley–Terry, Elo scale) and measure the side advantage.
    Ladder(ladder::LadderArgs),
    /// Play the same games at every value of one or two parameters (a designer's balance sweep).
    Sweep(sweep::SweepArgs),
    /// Combine the JSON results of shards (`simulate --shard I/N --json`) exactly.
    Merge {
        files: Vec<PathBuf>,
        /// Print JSON instead of a report.
        #[arg(long)]
        json: bool,
        /// Also write the merged results as a CSV table.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Also draw the merged results (SVG).
        #[arg(long, value_name = "FILE.svg")]
        chart: Option<PathBuf>,
    },
    /// Load a scenario file, play its choices, check its expectations and print the position.
    Scenario {
        file: PathBuf,
        /// Print JSON (the position in scenario form, the outcome, failed expectations).
        #[arg(long)]
        json: bool,
        /// Also save the resulting position as a scenario file.
        #[arg(long, value_name = "OUT")]
        save: Option<PathBuf>,
    },
    /// Play many random games checking every invariant after every step (see SOAK.md).
    Soak {
        #[arg(long, default_value_t = 10_000)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Round-trip the state through a scenario file every K steps (1: every step).
        #[arg(long, default_value_t = 20)]
        save_every: u64,
    },
    /// Measure speed and memory (the figures of BENCHMARKS.md).
    Bench {
        /// Smaller runs, for a quick look.
        #[arg(long)]
        quick: bool,
        /// Also measure the peak memory of an N-game simulation (BENCHMARKS.md uses 1000000).
        #[arg(long, value_name = "N")]
        peak_memory_games: Option<u64>,
    },
    /// Play at the terminal: against an agent, or two players at one terminal (--as both).
    Play(play::PlayArgs),
    /// Replay a game log choice by choice, narrated, and check it ends as recorded.
    Replay {
        log: PathBuf,
        /// Wait for Enter after each choice.
        #[arg(long)]
        step: bool,
    },
    /// Decide whether the side to move can force a win within the round (or N decisions).
    Solve {
        file: PathBuf,
        /// Search at most N decisions (plies) ahead instead of to the end of the round.
        #[arg(long)]
        depth: Option<u32>,
        /// Give up after this many positions.
        #[arg(long, default_value_t = 20_000_000)]
        nodes: u64,
    },
}

/// Parses the arguments and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    run(cli)
}

pub fn run(cli: Cli) -> ExitCode {
    let result = match &cli.command {
        Command::Check { variant } => check::run(cli.data.as_deref(), variant.as_deref()),
        Command::Cards { json } => load(&cli).and_then(|r| cards::run(&r, *json)),
        Command::Export { dir, force } => export(dir, *force),
        Command::ScriptApi => {
            print!("{}", crate::script::api::reference());
            Ok(())
        }
        Command::Simulate(args) => {
            dataset(cli.data.as_deref()).and_then(|ds| simulate::run(&ds, args))
        }
        Command::Ladder(args) => dataset(cli.data.as_deref()).and_then(|ds| ladder::run(&ds, args)),
        Command::Sweep(args) => dataset(cli.data.as_deref()).and_then(|ds| sweep::run(&ds, args)),
        Command::Merge {
            files,
            json,
            csv,
            chart,
        } => load(&cli)
            .and_then(|r| simulate::merge(files, *json, csv.as_deref(), chart.as_deref(), &r)),
        Command::Scenario { file, json, save } => scenario::run(file, *json, save.as_deref()),
        Command::Solve { file, depth, nodes } => solve::run(file, *depth, *nodes),
        Command::Bench {
            quick,
            peak_memory_games,
        } => crate::bench::run(
            &mut std::io::stdout(),
            &crate::bench::BenchConfig {
                quick: *quick,
                peak_memory_games: *peak_memory_games,
            },
        )
        .map_err(|e| CliError::Message(e.to_string())),
        Command::Soak {
            games,
            seed,
            threads,
            save_every,
        } => load(&cli).and_then(|r| soak(&r, *games, *seed, *threads, *save_every)),
        Command::Play(args) => play::run(cli.data.as_deref(), args),
        Command::Replay { log, step } => load(&cli).and_then(|r| replay::run(&r, log, *step)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Data(d)) => {
            report(&d, cli.data.as_deref());
            ExitCode::from(1)
        }
        Err(CliError::Message(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(2)
        }
        Err(CliError::Failed(m)) => {
            if !m.is_empty() {
                eprintln!("{m}");
            }
            ExitCode::from(1)
        }
    }
}

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// Bad data: every problem, exit 1.
    Data(Diagnostics),
    /// Bad usage or an unexpected failure, exit 2.
    Message(String),
    /// The command ran and its answer is "no" (a failed expectation), exit 1.
    Failed(String),
}

impl From<String> for CliError {
    fn from(m: String) -> Self {
        CliError::Message(m)
    }
}

pub type CliResult = Result<(), CliError>;

/// The data set the command line names.
pub fn dataset(dir: Option<&std::path::Path>) -> Result<DataSet, CliError> {
    match dir {
        Some(d) => DataSet::from_dir(d).map_err(CliError::Data),
        None => Ok(DataSet::embedded()),
    }
}

pub fn load(cli: &Cli) -> Result<Rules, CliError> {
    load_from(cli.data.as_deref())
}

pub fn load_from(dir: Option<&std::path::Path>) -> Result<Rules, CliError> {
    let ds = dataset(dir)?;
    data::load(&ds).map_err(CliError::Data)
}

/// Prints diagnostics to stderr: the `path:line:col: message` line, then
/// the offending line of the file with a caret.
pub fn report(d: &Diagnostics, data_dir: Option<&std::path::Path>) {
    let embedded = DataSet::embedded();
    for diag in d.iter() {
        eprintln!("{diag}");
        let text = std::fs::read_to_string(&diag.path).ok().or_else(|| {
            let rel = match data_dir {
                Some(dir) => std::path::Path::new(&diag.path)
                    .strip_prefix(dir)
                    .ok()?
                    .to_string_lossy()
                    .to_string(),
                None => diag.path.clone(),
            };
            embedded
                .get(&rel)
                .and_then(|b| std::str::from_utf8(b).ok())
                .map(str::to_string)
        });
        if let Some(snippet) = text.and_then(|t| diag.snippet(&t)) {
            for line in snippet.lines() {
                eprintln!("    {line}");
            }
        }
    }
    eprintln!(
        "{} problem{} found",
        d.len(),
        if d.len() == 1 { "" } else { "s" }
    );
}

fn soak(r: &Rules, games: u64, seed: u64, threads: Option<usize>, save_every: u64) -> CliResult {
    use std::io::IsTerminal;
    let threads = threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let cfg = crate::soak::SoakConfig {
        games,
        seed,
        threads,
        save_every,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(games);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {per_sec}, {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let start = std::time::Instant::now();
    let rep = crate::soak::soak(r, &cfg, &|n| {
        if let Some(b) = &bar {
            if n % 32 == 0 {
                b.set_position(n);
            }
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "soak: {} games, {} steps checked in {:.0} s on {threads} threads (seed {seed})",
        rep.games, rep.steps, secs
    );
    println!(
        "  conservation checked after every step and after each of {} legal options applied",
        rep.options_applied
    );
    println!(
        "  {} illegal choices refused with the game unchanged",
        rep.illegal_refused
    );
    println!(
        "  {} save-and-load round trips through a scenario file (every {save_every} step(s))",
        rep.round_trips
    );
    println!(
        "  {} games replayed from their logs to the same final state",
        rep.replays
    );
    match rep.failure {
        None => {
            println!("  no failure");
            Ok(())
        }
        Some((what, position)) => {
            let file = "soak-failure.ron";
            let _ = std::fs::write(file, position);
            Err(CliError::Failed(format!(
                "FAILURE: {what}
the position is saved in {file}"
            )))
        }
    }
}

fn export(dir: &std::path::Path, force: bool) -> CliResult {
    if dir.exists()
        && std::fs::read_dir(dir)
            .map(|mut e| e.next().is_some())
            .unwrap_or(false)
        && !force
    {
        return Err(CliError::Message(format!(
            "{} is not empty; pass --force to overwrite",
            dir.display()
        )));
    }
    let ds = DataSet::embedded();
    let n = ds
        .write_to(dir)
        .map_err(|e| CliError::Message(format!("cannot write {}: {e}", dir.display())))?;
    println!(
        "wrote {n} files to {}; edit them and run `watergate --data {} check`",
        dir.display(),
        dir.display()
    );
    Ok(())
}
