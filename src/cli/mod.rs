//! The `watergate` command line. Each subcommand lives in its own module;
//! this one parses arguments, loads the data and reports errors.

mod cards;
mod check;
mod diff;
mod ladder;
mod play;
mod puzzle;
mod replay;
mod scenario;
mod script_api;
mod simulate;
mod solve;
mod sweep;
mod values;

use crate::data::{DataSet, GameSource};
use crate::diag::Diagnostics;
use crate::rules::Rules;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "watergate",
    version,
    about = "Watergate (Matthias Cramer, 2019) as data: check the card files, simulate, play and solve",
    after_help = "The game's data (cards/, scripts/) is built into the binary. Every command that loads a game takes `--data DIR` (an edited copy, see `watergate export`) and `--variant FILE` (a house-rule variant applied to it)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Where the game comes from: flattened into exactly the commands that load
/// a game, so each of them honours both flags (and no other command accepts
/// them). A scenario's own `data:`/`variant:` combine with these by the rule
/// of `Scenario::rules`.
#[derive(Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// Load the game from this data root (holding cards/ and scripts/) [default: the shipped game].
    #[arg(long, value_name = "DIR", help_heading = "Game")]
    pub data: Option<PathBuf>,
    /// Apply this house-rule variant file to the game (after --data) [default: none].
    #[arg(long, value_name = "FILE", help_heading = "Game")]
    pub variant: Option<PathBuf>,
}

impl GameArgs {
    pub fn source(&self) -> GameSource {
        GameSource {
            data: self.data.clone(),
            variant: self.variant.clone(),
        }
    }

    /// The files of the game: the data with the variant applied.
    pub fn dataset(&self) -> Result<DataSet, CliError> {
        self.source().dataset().map_err(CliError::Data)
    }

    /// The game's rules.
    pub fn rules(&self) -> Result<Rules, CliError> {
        self.source().rules().map_err(CliError::Data)
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Load and validate the data (and a variant); print every problem as path:line:col: message.
    Check {
        #[command(flatten)]
        game: GameArgs,
        /// Also run the card scripts in many reachable states: games with every
        /// agent and every scenario under scenarios/ (and tests/scenarios/).
        #[arg(long)]
        deep: bool,
        /// With --deep: random games to play (agents that think play fewer) [default: 1000].
        #[arg(short = 'n', long, value_name = "N", requires = "deep", value_parser = values::count)]
        games: Option<u64>,
    },
    /// List the player cards as a table, or as JSON.
    Cards {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Write the game's data to DIR for a designer to edit (then use --data DIR).
    Export {
        /// The folder to write cards/ and scripts/ into (created if missing).
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Overwrite files in a non-empty directory.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Show every difference between two games: cards field by field, scripts as unified diffs, board, tokens, settings.
    Diff(diff::DiffArgs),
    /// Print the card-script API: every function a card script may call.
    ScriptApi {
        #[command(flatten)]
        game: GameArgs,
    },
    /// Play many games between two agents and print statistics.
    Simulate(simulate::SimulateArgs),
    /// Rate agents by a round robin on both sides (Bradley–Terry, Elo scale) and measure the side advantage.
    Ladder(ladder::LadderArgs),
    /// Play the same games at every value of one or two parameters (a designer's balance sweep).
    Sweep(sweep::SweepArgs),
    /// Combine the JSON results of shards (`simulate --shard I/N --json`) exactly.
    Merge {
        /// The JSON results of the shards (`simulate --shard I/N --json`), one file each.
        #[arg(value_name = "FILE", required = true)]
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
        /// The scenario file (RON): a position, choices to play, expectations.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Print JSON (the position in scenario form, the outcome, failed expectations).
        #[arg(long)]
        json: bool,
        /// Also save the resulting position as a scenario file.
        #[arg(short = 'o', long, value_name = "FILE")]
        save: Option<PathBuf>,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Play many random games checking every invariant after every step (see SOAK.md).
    Soak {
        /// Number of random games.
        #[arg(short = 'n', long, value_name = "N", default_value_t = 10_000, value_parser = values::count)]
        games: u64,
        /// Seed of the run: game i uses a seed derived from it.
        #[arg(short, long, value_name = "SEED", default_value_t = 1, value_parser = values::seed, allow_hyphen_values = true)]
        seed: u64,
        /// Worker threads [default: every core].
        #[arg(short = 'j', long, value_name = "N", value_parser = values::threads)]
        threads: Option<usize>,
        /// Round-trip the state through a scenario file every K steps (1: every step).
        #[arg(long, value_name = "K", default_value_t = 20, value_parser = values::count)]
        save_every: u64,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Measure speed and memory (the figures of BENCHMARKS.md).
    Bench {
        /// Smaller runs, for a quick look.
        #[arg(long)]
        quick: bool,
        /// Also measure the peak memory of an N-game simulation (BENCHMARKS.md uses 1000000) [default: not measured].
        #[arg(long, value_name = "N", value_parser = values::count)]
        peak_memory_games: Option<u64>,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Play at the terminal: against an agent, or two players at one terminal (--as both).
    Play(play::PlayArgs),
    /// Replay a game log choice by choice, narrated, and check it ends as recorded.
    Replay {
        /// The game log (RON) written by `watergate play`.
        #[arg(value_name = "FILE")]
        log: PathBuf,
        /// Wait for Enter after each choice.
        #[arg(long)]
        step: bool,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Decide whether the side to move can force a win within the round (or N decisions).
    Solve {
        /// The scenario file holding the position (a puzzle's claim is checked against the answer).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Search at most N decisions (plies) ahead [default: the puzzle's depth, else to the end of the round].
        #[arg(long, value_name = "N", value_parser = values::depth)]
        depth: Option<u32>,
        /// Give up after this many positions (the answer is then "unknown").
        #[arg(long, value_name = "N", default_value_t = 20_000_000, value_parser = values::count)]
        nodes: u64,
        #[command(flatten)]
        game: GameArgs,
        /// Also print the winning line (or the best defence): a puzzle's answer.
        #[arg(long)]
        show_line: bool,
    },
    /// Attempt a puzzle: play its side against the solver's best defence (`hint`, `reveal`).
    Puzzle(puzzle::PuzzleArgs),
}

impl Command {
    /// The command's choice of game, if it loads one.
    pub fn game(&self) -> Option<&GameArgs> {
        match self {
            Command::Check { game, .. }
            | Command::Cards { game, .. }
            | Command::Export { game, .. }
            | Command::ScriptApi { game }
            | Command::Scenario { game, .. }
            | Command::Soak { game, .. }
            | Command::Bench { game, .. }
            | Command::Replay { game, .. }
            | Command::Solve { game, .. } => Some(game),
            Command::Simulate(a) => Some(&a.game),
            Command::Play(a) => Some(&a.game),
            Command::Diff(a) => Some(&a.game),
            Command::Puzzle(a) => Some(&a.game),
            Command::Sweep(a) => Some(&a.game),
            Command::Ladder(a) => Some(&a.game),
            Command::Merge { .. } => None,
        }
    }
}

/// Parses the arguments and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    run(cli)
}

pub fn run(cli: Cli) -> ExitCode {
    let result = match &cli.command {
        Command::Check { game, deep, games } => check::run(
            &game.source(),
            deep.then(|| games.unwrap_or(check::DEEP_GAMES)),
        ),
        Command::Cards { json, game } => game.rules().and_then(|r| cards::run(&r, *json)),
        Command::Export { dir, force, game } => export(dir, *force, game),
        Command::ScriptApi { game } => game
            .rules()
            .and_then(|r| script_api::run(&r, &game.source().label())),
        Command::Simulate(args) => simulate::run(args),
        Command::Ladder(args) => ladder::run(args),
        Command::Sweep(args) => sweep::run(args),
        Command::Merge {
            files,
            json,
            csv,
            chart,
        } => {
            // The merged report reads only the results files; the rules are
            // not consulted, so merge takes no game.
            simulate::merge(
                files,
                *json,
                csv.as_deref(),
                chart.as_deref(),
                &crate::data::shipped(),
            )
        }
        Command::Scenario {
            file,
            json,
            save,
            game,
        } => scenario::run(file, *json, save.as_deref(), &game.source()),
        Command::Solve {
            file,
            depth,
            nodes,
            game,
            show_line,
        } => solve::run(file, *depth, *nodes, *show_line, &game.source()),
        Command::Puzzle(args) => puzzle::run(args),
        Command::Bench {
            quick,
            peak_memory_games,
            game,
        } => game.dataset().and_then(|ds| {
            crate::bench::run(
                &mut std::io::stdout(),
                &crate::bench::BenchConfig {
                    quick: *quick,
                    peak_memory_games: *peak_memory_games,
                    game: game.source(),
                },
                &ds,
            )
            .map_err(|e| CliError::Message(e.to_string()))
        }),
        Command::Soak {
            games,
            seed,
            threads,
            save_every,
            game,
        } => game
            .rules()
            .and_then(|r| soak(&r, &game.source(), *games, *seed, *threads, *save_every)),
        Command::Play(args) => play::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Replay { log, step, game } => {
            game.rules().and_then(|r| replay::run(&r, log, *step))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Data(d)) => {
            report(&d, cli.command.game().and_then(|g| g.data.as_deref()));
            ExitCode::from(2)
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
        Err(CliError::Script { error, context }) => {
            report_script(&error, &context);
            ExitCode::from(3)
        }
    }
}

/// Prints a card script's failure: `path:line:col: card `…`: message`, the
/// line of the script with a caret, then where it happened and how to get
/// there again.
pub fn report_script(e: &crate::engine::ScriptError, context: &str) {
    eprintln!("error: {e}");
    let text = std::fs::read_to_string(&e.script).ok().or_else(|| {
        DataSet::embedded()
            .get(&e.script)
            .and_then(|b| std::str::from_utf8(b).ok())
            .map(str::to_string)
    });
    let d = crate::diag::Diagnostic::new(&e.script, e.line, e.col, e.message.clone());
    if let Some(snippet) = text.and_then(|t| d.snippet(&t)) {
        for line in snippet.lines() {
            eprintln!("    {line}");
        }
    }
    for line in context.lines() {
        eprintln!("  {line}");
    }
}

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// Bad data: every problem, exit 2.
    Data(Diagnostics),
    /// Bad usage or an unexpected failure, exit 2.
    Message(String),
    /// The command ran and its answer is "no" (a failed expectation), exit 1.
    Failed(String),
    /// A card script failed at run time: the script is to blame; `context`
    /// says where (which game, which scenario) and how to get there again.
    /// Exit 3.
    Script {
        error: crate::engine::ScriptError,
        context: String,
    },
}

impl From<String> for CliError {
    fn from(m: String) -> Self {
        CliError::Message(m)
    }
}

pub type CliResult = Result<(), CliError>;

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

fn soak(
    r: &Rules,
    game: &GameSource,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    save_every: u64,
) -> CliResult {
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
    println!("  game: {}", game.label());
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
            if let Some(error) = rep.script {
                // A card script failed: the script is to blame, not the engine.
                return Err(CliError::Script {
                    error,
                    context: format!(
                        "{what}\nthe position before that choice is saved in {file} (`watergate scenario {file}`)"
                    ),
                });
            }
            Err(CliError::Failed(format!(
                "FAILURE: {what}
the position is saved in {file}"
            )))
        }
    }
}

fn export(dir: &std::path::Path, force: bool, game: &GameArgs) -> CliResult {
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
    // The game as given: the edited copy, with the variant's changes
    // written into the files they change.
    let ds = game.dataset()?;
    let n = ds
        .write_to(dir)
        .map_err(|e| CliError::Message(format!("cannot write {}: {e}", dir.display())))?;
    println!(
        "wrote {n} files of {} to {}; edit them and run `watergate check --data {}`",
        game.source().label(),
        dir.display(),
        dir.display()
    );
    Ok(())
}
