//! The `watergate` command line. Each subcommand lives in its own module;
//! this one parses arguments, loads the data and reports errors.

mod cards;
mod check;
mod diff;
pub mod interrupt;
mod ladder;
pub mod output;
pub mod paths;
pub mod play;
pub mod progress;
mod puzzle;
mod replay;
mod scenario;
mod script_api;
mod serve;
mod simulate;
mod solve;
mod sweep;
mod values;

use crate::data::{DataSet, GameSource};
use crate::diag::Diagnostics;
use crate::game::rules::Rules;
use clap::{Args, Parser, Subcommand};
use output::errln;
use std::io::Write;
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
    /// Colours and screen control: auto (when stdout is a terminal and NO_COLOR is not set), always or never.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto", value_parser = ColorChoice::parse)]
    pub color: ColorChoice,
    /// No progress bars on stderr (they are drawn only when stderr is a terminal anyway).
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
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
        /// Also time this build against another build of watergate (its binary): both play the same random games on one thread, in paired rounds, and the bench prints how many times as fast this build is [default: not compared].
        #[arg(long, value_name = "WATERGATE")]
        compare_build: Option<PathBuf>,
        /// Rounds of --compare-build, each running both builds once (alternating which goes first).
        #[arg(long, value_name = "N", default_value_t = 20, value_parser = values::count, requires = "compare_build")]
        compare_rounds: u64,
        /// Random games per run of --compare-build.
        #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = values::count, requires = "compare_build")]
        compare_games: u64,
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
    /// The studio: a local web application to play, replay, attempt puzzles and print the cards.
    Serve(serve::ServeArgs),
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
            Command::Serve(a) => Some(&a.game),
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
    progress::set_quiet(cli.quiet);
    let result = dispatch(&cli).and_then(|()| output::flush());
    exit(result, cli.command.game().and_then(|g| g.data.as_deref()))
}

fn dispatch(cli: &Cli) -> CliResult {
    // Long runs take Ctrl-C from the start, loading included (the run then
    // reports zero games, partial); other commands keep SIGINT's default.
    if matches!(
        cli.command,
        Command::Simulate { .. }
            | Command::Soak { .. }
            | Command::Solve { .. }
            | Command::Sweep { .. }
            | Command::Ladder { .. }
    ) {
        interrupt::watch();
    }
    match &cli.command {
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
            // The merged report reads only the results files: merge takes no game.
            simulate::merge(files, *json, csv.as_deref(), chart.as_deref())
        }
        Command::Scenario {
            file,
            json,
            save,
            game,
        } => scenario::run(file, *json, save.as_deref(), &game.source(), cli.color),
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
            compare_build,
            compare_rounds,
            compare_games,
            game,
        } => game.dataset().and_then(|ds| {
            let compare = match compare_build {
                Some(other) => Some(crate::lab::compare_build::ComparePlan {
                    this: std::env::current_exe().map_err(|e| {
                        CliError::from(format!("cannot find this program's own file: {e}"))
                    })?,
                    other: other.clone(),
                    rounds: *compare_rounds,
                    games: *compare_games,
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
                quick: *quick,
                peak_memory_games: *peak_memory_games,
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
        Command::Play(args) => play::run(args, cli.color),
        Command::Serve(args) => serve::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Replay { log, step, game } => game
            .rules()
            .and_then(|r| replay::run(&r, log, *step, cli.color)),
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
        Err(CliError::Script { error, context }) => {
            report_script(&error, &context);
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

/// Prints a card script's failure: `path:line:col: card `…`: message`, the
/// line of the script with a caret, then where it happened and how to get
/// there again.
pub fn report_script(e: &crate::game::engine::ScriptError, context: &str) {
    errln!("error: {e}");
    let text = read_shown(std::path::Path::new(&e.script)).or_else(|| {
        DataSet::embedded()
            .get(&e.script)
            .and_then(|b| std::str::from_utf8(b).ok())
            .map(str::to_string)
    });
    let d = crate::diag::Diagnostic::new(&e.script, e.line, e.col, e.message.clone());
    if let Some(snippet) = text.and_then(|t| d.snippet(&t)) {
        for line in snippet.lines() {
            errln!("    {line}");
        }
    }
    for line in context.lines() {
        errln!("  {line}");
    }
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
    /// A card script failed at run time: the script is to blame; `context`
    /// says where (which game, which scenario) and how to get there again.
    /// Exit 3.
    Script {
        error: crate::game::engine::ScriptError,
        context: String,
    },
    /// The command could not find the answer (the solver's node limit), exit 4.
    Unknown(String),
    /// Ctrl-C: what was finished has been reported, exit 130.
    Interrupted(String),
    /// The reader of stdout went away (a closed pipe): stop quietly, exit 0.
    Closed,
}

impl CliError {
    /// An engine failure while games were played: a card script's, or another.
    pub fn from_play(e: crate::game::engine::PlayError) -> CliError {
        match e {
            crate::game::engine::PlayError::Script(error) => CliError::Script {
                error: *error,
                context: String::new(),
            },
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

/// The text of a file a message points into, to show its line: through
/// the one user-file reader, so a device or FIFO named in a message is not
/// read (nothing is shown for it).
fn read_shown(path: &std::path::Path) -> Option<String> {
    crate::data::read_data_file(path)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
}

/// Prints diagnostics to stderr: the `path:line:col: message` line, then
/// the offending line of the file with a caret.
pub fn report(d: &Diagnostics, data_dir: Option<&std::path::Path>) {
    let embedded = DataSet::embedded();
    for diag in d.iter() {
        errln!("{diag}");
        if diag.line == 0 {
            // No text to show (a missing or refused file).
            continue;
        }
        let text = read_shown(std::path::Path::new(&diag.path)).or_else(|| {
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

fn soak(
    r: &Rules,
    game: &GameSource,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    save_every: u64,
) -> CliResult {
    let threads = threads.unwrap_or_else(crate::lab::runner::cores);
    let cfg = crate::lab::soak::SoakConfig {
        games,
        seed,
        threads,
        save_every,
    };
    let bar = progress::Progress::new(games, "games");
    let stop = interrupt::watch();
    let mut out = output::stdout();
    let start = std::time::Instant::now();
    let rep = crate::lab::soak::soak_until(
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
    writeln!(out, "  game: {}", game.label())?;
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
    // The game as given: the edited copy, with the variant's changes
    // written into the files they change.
    let ds = game.dataset()?;
    let mut out = output::stdout();
    let n = ds
        .write_to(dir)
        .map_err(|e| CliError::Message(format!("cannot write {}: {e}", dir.display())))?;
    writeln!(
        out,
        "wrote {n} files of {} to {}; edit them and run `watergate check --data {}`",
        game.source().label(),
        dir.display(),
        dir.display()
    )?;
    Ok(())
}
