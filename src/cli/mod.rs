//! The `watergate` command line. Each subcommand lives in its own module;
//! this one parses arguments, loads the data and reports errors.

mod cards;
mod check;
pub mod interrupt;
pub mod output;
pub mod paths;
mod play;
pub mod progress;
mod replay;
mod scenario;
mod simulate;
mod solve;

use crate::data::{self, DataSet};
use crate::diag::Diagnostics;
use crate::rules::Rules;
use clap::{Parser, Subcommand};
use output::errln;
use std::io::Write;
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
    /// Colours and screen control: auto (when stdout is a terminal and NO_COLOR is not set), always or never.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto", value_parser = ColorChoice::parse)]
    pub color: ColorChoice,
    /// No progress bars on stderr (they are drawn only when stderr is a terminal anyway).
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
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
    progress::set_quiet(cli.quiet);
    let result = dispatch(&cli).and_then(|()| output::flush());
    exit(result, cli.data.as_deref())
}

fn dispatch(cli: &Cli) -> CliResult {
    // Long runs take Ctrl-C from the start, loading included (the run then
    // reports zero games, partial); other commands keep SIGINT's default.
    if matches!(
        cli.command,
        Command::Simulate { .. } | Command::Soak { .. } | Command::Solve { .. }
    ) {
        interrupt::watch();
    }
    match &cli.command {
        Command::Check { variant } => check::run(cli.data.as_deref(), variant.as_deref()),
        Command::Cards { json } => load(cli).and_then(|r| cards::run(&r, *json)),
        Command::Export { dir, force } => export(dir, *force),
        Command::ScriptApi => {
            write!(output::stdout(), "{}", crate::script::api::reference())?;
            Ok(())
        }
        Command::Simulate(args) => {
            dataset(cli.data.as_deref()).and_then(|ds| simulate::run(&ds, args))
        }
        Command::Merge {
            files,
            json,
            csv,
            chart,
        } => load(cli)
            .and_then(|r| simulate::merge(files, *json, csv.as_deref(), chart.as_deref(), &r)),
        Command::Scenario { file, json, save } => {
            scenario::run(file, *json, save.as_deref(), cli.color)
        }
        Command::Solve { file, depth, nodes } => solve::run(file, *depth, *nodes),
        Command::Bench {
            quick,
            peak_memory_games,
        } => {
            let cfg = crate::bench::BenchConfig {
                quick: *quick,
                peak_memory_games: *peak_memory_games,
            };
            let bar = progress::Progress::with_message(crate::bench::steps(&cfg), "measurements");
            crate::bench::run_with(&mut output::stdout(), &cfg, &|done, next| {
                bar.set(done);
                bar.set_message(next);
            })
            .map_err(CliError::from)
        }
        Command::Soak {
            games,
            seed,
            threads,
            save_every,
        } => load(cli).and_then(|r| soak(&r, *games, *seed, *threads, *save_every)),
        Command::Play(args) => play::run(cli.data.as_deref(), args, cli.color),
        Command::Replay { log, step } => {
            load(cli).and_then(|r| replay::run(&r, log, *step, cli.color))
        }
    }
}

/// The exit codes, one table for every command (README, "Command-line manners").
pub mod exit_code {
    /// The command did what was asked (or its reader closed the pipe).
    pub const SUCCESS: u8 = 0;
    /// A check, an expectation or a proof failed.
    pub const FAILED: u8 = 1;
    /// Bad usage, input or data.
    pub const USAGE: u8 = 2;
    /// A card script failed at run time.
    pub const SCRIPT: u8 = 3;
    /// No answer: the solver hit its node limit.
    pub const UNKNOWN: u8 = 4;
    /// Stopped by Ctrl-C (SIGINT), after reporting what was finished.
    pub const INTERRUPTED: u8 = 130;
}

/// Reports a command's failure on stderr and picks its exit code.
fn exit(result: CliResult, data_dir: Option<&std::path::Path>) -> ExitCode {
    let code = match result {
        // Interrupted, and the report met a closed pipe: still interrupted.
        Err(CliError::Closed) if interrupt::requested() => exit_code::INTERRUPTED,
        Ok(()) | Err(CliError::Closed) => exit_code::SUCCESS,
        Err(CliError::Data(d)) => {
            report(&d, data_dir);
            exit_code::USAGE
        }
        Err(CliError::Message(m)) => {
            errln!("error: {m}");
            exit_code::USAGE
        }
        Err(CliError::Failed(m)) => {
            if !m.is_empty() {
                errln!("{m}");
            }
            exit_code::FAILED
        }
        Err(CliError::Script(m)) => {
            errln!("error: a card script failed: {m}");
            exit_code::SCRIPT
        }
        Err(CliError::Unknown(m)) => {
            if !m.is_empty() {
                errln!("{m}");
            }
            exit_code::UNKNOWN
        }
        Err(CliError::Interrupted(m)) => {
            errln!("interrupted: {m}");
            exit_code::INTERRUPTED
        }
    };
    ExitCode::from(code)
}

/// Why a command failed (each with its exit code, see `exit_code`).
#[derive(Debug)]
pub enum CliError {
    /// Bad data: every problem, exit 2.
    Data(Diagnostics),
    /// Bad usage or an unexpected failure, exit 2.
    Message(String),
    /// The command ran and its answer is "no" (a failed expectation), exit 1.
    Failed(String),
    /// A card script failed while the game ran it, exit 3.
    Script(String),
    /// The command could not find the answer (the solver's node limit), exit 4.
    Unknown(String),
    /// Ctrl-C: what was finished has been reported, exit 130.
    Interrupted(String),
    /// The reader of stdout went away (a closed pipe): stop quietly, exit 0.
    Closed,
}

impl CliError {
    /// An engine failure while games were played: a card script's, or another.
    pub fn from_play(e: crate::engine::PlayError) -> CliError {
        match e {
            crate::engine::PlayError::Script(s) => CliError::Script(s.to_string()),
            other => CliError::Message(other.to_string()),
        }
    }
}

/// `--color`: whether to draw ANSI colours and control the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    pub fn parse(s: &str) -> Result<ColorChoice, String> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(ColorChoice::Auto),
            "always" | "yes" | "on" => Ok(ColorChoice::Always),
            "never" | "no" | "off" => Ok(ColorChoice::Never),
            _ => Err(format!("`{s}`: expected auto, always or never")),
        }
    }

    /// Colours on stdout: `auto` means stdout is a terminal and `NO_COLOR`
    /// (https://no-color.org) is unset or empty.
    pub fn enabled(self) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
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
        errln!("{diag}");
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
                errln!("    {line}");
            }
        }
    }
    errln!(
        "{} problem{} found",
        d.len(),
        if d.len() == 1 { "" } else { "s" }
    );
}

fn soak(r: &Rules, games: u64, seed: u64, threads: Option<usize>, save_every: u64) -> CliResult {
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
    let bar = progress::Progress::new(games, "games");
    let stop = interrupt::watch();
    let mut out = output::stdout();
    let start = std::time::Instant::now();
    let rep = crate::soak::soak_until(
        r,
        &cfg,
        &|n| {
            if n % 32 == 0 {
                bar.set(n);
            }
        },
        stop,
    );
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    let interrupted = interrupt::requested();
    if interrupted {
        writeln!(
            out,
            "PARTIAL: interrupted (Ctrl-C) after {} of {games} games; the checks below are for those games.",
            rep.games
        )?;
    }
    writeln!(
        out,
        "soak: {} games, {} steps checked in {:.0} s on {threads} threads (seed {seed})",
        rep.games, rep.steps, secs
    )?;
    writeln!(
        out,
        "  conservation checked after every step and after each of {} legal options applied",
        rep.options_applied
    )?;
    writeln!(
        out,
        "  {} illegal choices refused with the game unchanged",
        rep.illegal_refused
    )?;
    writeln!(
        out,
        "  {} save-and-load round trips through a scenario file (every {save_every} step(s))",
        rep.round_trips
    )?;
    writeln!(
        out,
        "  {} games replayed from their logs to the same final state",
        rep.replays
    )?;
    match rep.failure {
        None if interrupted => {
            writeln!(out, "  no failure in the games finished")?;
            out.flush()?;
            Err(CliError::Interrupted(format!(
                "the report covers the {} games finished of {games}",
                rep.games
            )))
        }
        None => {
            writeln!(out, "  no failure")?;
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
    paths::output_folder("export", dir)?;
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
    let mut out = output::stdout();
    let n = ds
        .write_to(dir)
        .map_err(|e| CliError::Message(format!("cannot write {}: {e}", dir.display())))?;
    writeln!(
        out,
        "wrote {n} files to {}; edit them and run `watergate --data {} check`",
        dir.display(),
        dir.display()
    )?;
    Ok(())
}
