//! The `watergate` command line. Each subcommand lives in its own module,
//! with its arguments (`XArgs`) and its `run`; this one parses the command
//! line, calls the command's `run` (one call per command) and reports errors.

mod batch;
mod bench;
mod cards;
mod check;
/// `watergate diff`; its printing is the workbench's diff too.
pub mod diff;
mod export;
pub mod interrupt;
mod ladder;
mod merge;
mod mine;
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
mod soak;
mod solve;
mod sweep;
mod values;

use crate::data::{DataSet, GameSource};
use crate::diag::Diagnostics;
use crate::game::rules::Rules;
use clap::{Args, Parser, Subcommand};
use output::errln;
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

    /// Refuses a file given to `--data` or a folder given to `--variant`,
    /// naming the flag that takes it: the two are easily swapped, and the
    /// loader alone would only say what is wrong with the path.
    fn check_kinds(&self) -> CliResult {
        if let Some(d) = self.data.as_deref().filter(|d| d.is_file()) {
            return Err(CliError::Message(format!(
                "--data {}: a file, not a folder: --data takes a data folder holding cards/ and scripts/ (a variant file goes after --variant)",
                d.display()
            )));
        }
        if let Some(v) = self.variant.as_deref().filter(|v| v.is_dir()) {
            return Err(CliError::Message(format!(
                "--variant {}: a folder, not a variant file (a data folder goes after --data)",
                v.display()
            )));
        }
        Ok(())
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
    Check(check::CheckArgs),
    /// List the player cards as a table, or as JSON.
    Cards(cards::CardsArgs),
    /// Write the game's data to DIR for a designer to edit (then use --data DIR).
    Export(export::ExportArgs),
    /// Show every difference between two games: cards field by field, scripts as unified diffs, board, tokens, settings.
    Diff(diff::DiffArgs),
    /// Print the card-script API: every function a card script may call.
    ScriptApi(script_api::ScriptApiArgs),
    /// Play many games between two agents and print statistics.
    Simulate(simulate::SimulateArgs),
    /// Rate agents by a round robin on both sides (Bradley–Terry, Elo scale) and measure the side advantage.
    Ladder(ladder::LadderArgs),
    /// Play the same games at every value of one or two parameters (a designer's balance sweep).
    Sweep(sweep::SweepArgs),
    /// Combine the JSON results of shards (`simulate --shard I/N --json`) exactly.
    Merge(merge::MergeArgs),
    /// Load a scenario file, play its choices, check its expectations and print the position.
    Scenario(scenario::ScenarioArgs),
    /// Play many random games checking every invariant after every step (see SOAK.md).
    Soak(soak::SoakArgs),
    /// Measure speed and memory (the figures of BENCHMARKS.md).
    Bench(bench::BenchArgs),
    /// Play at the terminal: against an agent, or two players at one terminal (--as both).
    Play(play::PlayArgs),
    /// Replay a game log choice by choice, narrated, and check it ends as recorded.
    Replay(replay::ReplayArgs),
    /// Decide whether the side to move can force a win within the round (or N decisions).
    // Written out: clap's usage would list the flags given as if required.
    #[command(override_usage = "watergate solve [OPTIONS] <FILE>")]
    Solve(solve::SolveArgs),
    /// Attempt a puzzle: play its side against the solver's best defence (`hint`, `reveal`).
    // Written out: the two ways to call it, each with what it needs.
    #[command(
        override_usage = "watergate puzzle [OPTIONS] <FILE>\n       watergate puzzle --list [--difficulty <K>] [DIR]..."
    )]
    Puzzle(puzzle::PuzzleArgs),
    /// Mine puzzles from strong self-play games (or logs): forced wins with exactly one winning first move, proven by the solver.
    Mine(mine::MineArgs),
    /// The studio: a local web application to play, replay, attempt puzzles and print the cards.
    Serve(serve::ServeArgs),
}

impl Command {
    /// The command's choice of game, if it loads one.
    /// The game flags of a command whose game comes from them alone: not
    /// from a file it reads (a scenario's or a log's `data:`), nor from a
    /// folder it compares with (`diff --from`, `simulate --against`).
    fn game_from_flags_only(&self) -> Option<&GameArgs> {
        match self {
            Command::Check(a) => Some(&a.game),
            Command::Cards(a) => Some(&a.game),
            Command::Export(a) => Some(&a.game),
            Command::ScriptApi(a) => Some(&a.game),
            Command::Simulate(a) if a.against.is_none() => Some(&a.game),
            Command::Ladder(a) => Some(&a.game),
            Command::Sweep(a) => Some(&a.game),
            Command::Soak(a) => Some(&a.game),
            Command::Bench(a) => Some(&a.game),
            Command::Play(a) if a.scenario.is_none() => Some(&a.game),
            Command::Mine(a) if a.logs.is_empty() => Some(&a.game),
            Command::Serve(a) => Some(&a.game),
            _ => None,
        }
    }

    pub fn game(&self) -> Option<&GameArgs> {
        match self {
            Command::Check(a) => Some(&a.game),
            Command::Cards(a) => Some(&a.game),
            Command::Export(a) => Some(&a.game),
            Command::Diff(a) => Some(&a.game),
            Command::ScriptApi(a) => Some(&a.game),
            Command::Simulate(a) => Some(&a.game),
            Command::Ladder(a) => Some(&a.game),
            Command::Sweep(a) => Some(&a.game),
            Command::Merge(_) => None,
            Command::Scenario(a) => Some(&a.game),
            Command::Soak(a) => Some(&a.game),
            Command::Bench(a) => Some(&a.game),
            Command::Play(a) => Some(&a.game),
            Command::Replay(a) => Some(&a.game),
            Command::Solve(a) => Some(&a.game),
            Command::Puzzle(a) => Some(&a.game),
            Command::Mine(a) => Some(&a.game),
            Command::Serve(a) => Some(&a.game),
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
    if let Some(game) = cli.command.game_from_flags_only() {
        note_data_here(game);
    }
    let result = dispatch(&cli).and_then(|()| output::flush());
    exit(result, cli.command.game().and_then(|g| g.data.as_deref()))
}

fn dispatch(cli: &Cli) -> CliResult {
    if let Some(game) = cli.command.game() {
        game.check_kinds()?;
    }
    // Long runs take Ctrl-C from the start, loading included (the run then
    // reports zero games, partial); other commands keep SIGINT's default.
    if matches!(
        cli.command,
        Command::Simulate(_)
            | Command::Soak(_)
            | Command::Solve(_)
            | Command::Sweep(_)
            | Command::Ladder(_)
            | Command::Mine(_)
    ) {
        interrupt::watch();
    }
    match &cli.command {
        Command::Check(a) => check::run(a),
        Command::Cards(a) => cards::run(a),
        Command::Export(a) => export::run(a),
        Command::Diff(a) => diff::run(a),
        Command::ScriptApi(a) => script_api::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Ladder(a) => ladder::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Scenario(a) => scenario::run(a, cli.color),
        Command::Soak(a) => soak::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Play(args) => play::run(args, cli.color),
        Command::Replay(a) => replay::run(a, cli.color),
        Command::Solve(a) => solve::run(a),
        Command::Puzzle(args) => puzzle::run(args, cli.color),
        Command::Mine(a) => mine::run(a),
        Command::Serve(a) => serve::run(a),
    }
}

/// Says, in one line on stderr, that the data folder the command runs in
/// is not the game it plays: `cd mydata && watergate check` checks the
/// built-in data, and would pass whatever is wrong in `./cards`. Said only
/// when `./cards/` and `./scripts/` are there, no `--data` was given, and
/// they are not the built-in data's copy (a checkout of this repository,
/// say), where loading them would change nothing.
fn note_data_here(game: &GameArgs) {
    let here = std::path::Path::new(".");
    if game.data.is_some()
        || !crate::data::source::DATA_FOLDERS
            .iter()
            .all(|f| here.join(f).is_dir())
    {
        return;
    }
    let same = DataSet::from_dir(here)
        .is_ok_and(|d| d.unread.is_empty() && d.files == DataSet::embedded().files);
    if !same {
        errln!(
            "note: ./cards and ./scripts are not loaded: this command uses the built-in data; `--data .` loads them"
        );
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
    // The text the game ran, not a file read now: the file on disk may have
    // changed, or be another one (a variant's script fills a slot of the
    // data, and the slot's shipped script has other lines).
    let d = crate::diag::Diagnostic::new(&e.script, e.line, e.col, e.message.clone());
    if let Some(snippet) = d.snippet(&e.script_text) {
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
        error: Box<crate::game::engine::ScriptError>,
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
                error,
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

/// Worker threads the system would not start: bad usage for this machine
/// (too many `--threads` for its limits), exit 2 like other refusals.
impl From<crate::lab::runner::ThreadsRefused> for CliError {
    fn from(e: crate::lab::runner::ThreadsRefused) -> Self {
        CliError::Message(e.to_string())
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
/// read (nothing is shown for it). `Err` when the file is not there (not
/// on disk, not shipped); `Ok(None)` when it is there but is not text:
/// nothing is shown for it, rather than another file's line.
fn read_shown(path: &std::path::Path) -> Result<Option<String>, ()> {
    match crate::data::read_data_file(path) {
        Ok(bytes) => Ok(String::from_utf8(bytes).ok()),
        Err(crate::data::ReadError::Io(_, e)) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(())
        }
        Err(_) => Ok(None),
    }
}

/// Warns, in one line on stderr, that a seeded run with an agent on a time
/// budget (`ismcts:Nms`) will not repeat: how far it searches depends on
/// the machine's speed and load, so the same seed gives other games.
pub fn note_timed_agents<'a>(
    agents: impl IntoIterator<Item = &'a crate::players::agent::AgentSpec>,
) {
    use crate::players::agent::Budget;
    let mut timed: Vec<String> = Vec::new();
    for a in agents {
        let name = a.to_string();
        if matches!(a.budget(), Some(Budget::Millis(_))) && !timed.contains(&name) {
            timed.push(name);
        }
    }
    if !timed.is_empty() {
        errln!(
            "note: {} {} a time budget, so its games depend on the machine's speed and --seed does not repeat this run (ismcts:N, a number of iterations, does)",
            timed.join(", "),
            if timed.len() == 1 { "has" } else { "have" },
        );
    }
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
        // A file of the game's data that is not on disk is the shipped
        // copy's (the data is built in); a file of `--data DIR` is always
        // on disk, so none is looked for in the shipped copy.
        let text = read_shown(std::path::Path::new(&diag.path)).unwrap_or_else(|()| {
            if data_dir.is_some() {
                return None;
            }
            embedded
                .get(&diag.path)
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
