//! `watergate puzzle FILE`: attempt a puzzle at the terminal against the
//! solver's best defence (see `src/app/puzzle.rs`). `watergate puzzle
//! --list [DIR…]` lists puzzles with their side and difficulty (the hand-made
//! ones of `scenarios/puzzles/` and the mined ones of
//! `scenarios/puzzles/mined/` by default: the folders here, else the copies
//! shipped in the binary), `--difficulty LEVEL` only those of one level.

use super::{CliError, CliResult};
use crate::app::puzzle::{attempt, AttemptConfig, Ending, Puzzle};
use crate::data::GameSource;
use crate::formats::scenario::Scenario;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::lab::mine::{difficulty_of, Difficulty};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct PuzzleArgs {
    /// The puzzle: a scenario file with a `puzzle` claim (with --list: folders of puzzles to list).
    // Not `required` for clap: its message would not mention --list; `run`
    // says what is missing.
    #[arg(value_name = "FILE")]
    pub file: Vec<PathBuf>,
    /// List the puzzles (side, difficulty, name) of the folders given, or of scenarios/puzzles and scenarios/puzzles/mined (here, else the shipped ones), instead of attempting one.
    #[arg(long)]
    pub list: bool,
    /// List only the puzzles of this difficulty: easy, medium or hard (measured by `watergate mine`) [default: every puzzle].
    #[arg(long, value_name = "K", value_parser = parse_difficulty, requires = "list")]
    pub difficulty: Option<Difficulty>,
    /// Seed of the chance draws [default: a random one: a fixed seed would
    /// let a second attempt know what chance gives].
    #[arg(short, long, value_name = "SEED", value_parser = super::values::seed, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// The solver's node limit for each answer and hint.
    #[arg(long, value_name = "N", default_value_t = 20_000_000, value_parser = super::values::count, allow_negative_numbers = true)]
    pub nodes: u64,
    /// Plain text: no ANSI colours (the same as the global --color never).
    #[arg(long, alias = "no-color")]
    pub no_colour: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
}

pub fn run(a: &PuzzleArgs, color: super::ColorChoice) -> CliResult {
    if a.list {
        return list(&a.file, a.difficulty, &a.game.source());
    }
    let [file] = a.file.as_slice() else {
        return Err(CliError::Message(
            "give one puzzle FILE to attempt (or --list to list folders of puzzles)".into(),
        ));
    };
    let scn = Scenario::from_file(file).map_err(CliError::Data)?;
    let Some(def) = &scn.def.puzzle else {
        return Err(CliError::Message(format!(
            "{}: not a puzzle (it has no `puzzle` claim); try `watergate play --scenario`",
            scn.display
        )));
    };
    let rules = scn.rules(&a.game.source()).map_err(CliError::Data)?;
    let state = puzzle_start(&scn, &rules)?;
    let goal = scn.goal().unwrap_or_default();
    let cfg = AttemptConfig {
        seed: match a.seed {
            Some(seed) => seed,
            None => super::play::unchosen_seed()?,
        },
        node_limit: a.nodes,
        colour: !a.no_colour && color.enabled(),
        thinking: thinking_bar,
        echo: !std::io::IsTerminal::is_terminal(&std::io::stdin()),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let result = attempt(
        &rules,
        Puzzle {
            def,
            name: &scn.def.name,
            goal: &goal,
        },
        &state,
        &cfg,
        stdin.lock(),
        stdout.lock(),
    );
    match result {
        Ok(a) => match a.ending {
            Ending::Solved | Ending::Quit => Ok(()),
            // The attempt ran and its answer is "not solved".
            Ending::Failed(_) if def.wins => Err(CliError::Failed(String::new())),
            Ending::Failed(_) => Ok(()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Message(format!("terminal: {e}"))),
    }
}

/// The position a puzzle starts from, as an attempt loads it: the
/// scenario's position, its choices played, its recorded solution replayed
/// (`Scenario::play`), and a game not over.
fn puzzle_start(scn: &Scenario, rules: &Rules) -> Result<State, CliError> {
    let mut state = scn.start(rules).map_err(CliError::Data)?;
    scn.play(rules, &mut state).map_err(CliError::Data)?;
    if let Some(o) = state.outcome() {
        return Err(CliError::Message(format!(
            "{}: the game is already over there ({} won)",
            scn.display, o.winner
        )));
    }
    Ok(state)
}

/// Why a puzzle does not load, in its first line.
fn first_line(e: &CliError) -> String {
    let text = match e {
        CliError::Data(d) => d.iter().next().map_or(String::new(), |x| x.to_string()),
        CliError::Script { error, .. } => error.to_string(),
        CliError::Message(m)
        | CliError::Failed(m)
        | CliError::Unknown(m)
        | CliError::Interrupted(m) => m.clone(),
        CliError::Closed => String::new(),
    };
    text.lines().next().unwrap_or("").to_string()
}

/// While the solver thinks: the positions searched, on a bar on stderr
/// (when it is a terminal and `--quiet` is off, as every bar).
fn thinking_bar(node_limit: u64) -> Box<dyn Fn(u64) -> bool> {
    let bar = super::progress::Progress::up_to(node_limit, "positions searched");
    Box::new(move |n| {
        bar.set(n);
        true
    })
}

fn parse_difficulty(s: &str) -> Result<Difficulty, String> {
    Difficulty::parse(s).ok_or_else(|| "expected easy, medium or hard".to_string())
}

/// The folders listed when none is given: the hand-made puzzles and the
/// mined ones, where the current folder has them, else the copies shipped
/// in the binary (which `watergate puzzle FILE` opens by the same paths).
const LISTED: [&str; 2] = ["scenarios/puzzles", "scenarios/puzzles/mined"];

/// `--list`: one line per puzzle file, `difficulty side file: name`; a file
/// that does not load is listed with its problem (and is never "easy").
fn list(dirs: &[PathBuf], only: Option<Difficulty>, game: &GameSource) -> CliResult {
    let here: Vec<PathBuf> = if dirs.is_empty() {
        LISTED
            .iter()
            .map(PathBuf::from)
            .filter(|d| d.is_dir())
            .collect()
    } else {
        dirs.to_vec()
    };
    let mut files = Vec::new();
    for dir in &here {
        match shipped_in(dir) {
            // A shipped folder named outside a checkout: its built-in copies.
            Some(shipped) if !dir.exists() => files.extend(shipped),
            _ => files.extend(files_in(dir)?),
        }
    }
    if dirs.is_empty() && here.is_empty() {
        // Outside a checkout: the shipped puzzles, by their relative paths.
        files = LISTED
            .iter()
            .filter_map(|d| shipped_in(Path::new(d)))
            .flatten()
            .collect();
    }
    if files.is_empty() && here.is_empty() {
        return Err(CliError::Message(format!(
            "no puzzle folder here ({}): name one, `watergate puzzle --list DIR`",
            LISTED.join(", ")
        )));
    }
    let mut out = super::output::stdout();
    let mut shown = 0;
    for (file, line) in puzzles_of(files, game) {
        let (level, text) = line;
        if only.is_some() && level != only {
            continue;
        }
        shown += 1;
        let level = level.map_or("-", Difficulty::key);
        writeln!(out, "{level:<6} {text}  ({})", file.display())?;
    }
    let what = only.map_or(String::new(), |d| format!("{} ", d.key()));
    writeln!(
        out,
        "{shown} {what}puzzle{}",
        if shown == 1 { "" } else { "s" }
    )?;
    Ok(())
}

/// The shipped `.ron` files of `dir` when it names a shipped folder
/// (`scenarios/puzzles/mined`), by their relative paths, sorted.
fn shipped_in(dir: &Path) -> Option<Vec<PathBuf>> {
    let dir = PathBuf::from(crate::data::source::normalise(dir)?);
    let files: Vec<PathBuf> = crate::data::source::shipped_scenario_paths()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "ron") && p.parent() == Some(&dir))
        .collect();
    (!files.is_empty()).then_some(files)
}

/// The `.ron` files of `dir` (not of its subfolders), sorted.
fn files_in(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| CliError::Message(format!("{}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    Ok(files)
}

type ListLine = (Option<Difficulty>, String);

/// The puzzles among `files`: each file's difficulty and a line saying
/// whose move it is and its name (a file that is not a puzzle is left out).
/// Each is loaded as `watergate puzzle FILE` loads it; one that does not
/// load (a recorded solution that is not legal, a position where no one
/// can act) says why, by the first line of its problem.
fn puzzles_of(files: Vec<PathBuf>, game: &GameSource) -> Vec<(PathBuf, ListLine)> {
    let mut out = Vec::new();
    // The rules of every puzzle without its own (data, variant, edits):
    // loaded once.
    let mut common: Option<Result<Rules, CliError>> = None;
    for f in files {
        let line = match Scenario::from_file(&f) {
            Ok(scn) => match &scn.def.puzzle {
                Some(p) => {
                    let own;
                    let rules = if scn.has_own_rules() {
                        own = scn.rules(game).map_err(CliError::Data);
                        &own
                    } else {
                        common.get_or_insert_with(|| scn.rules(game).map_err(CliError::Data))
                    };
                    let loaded = match rules {
                        Ok(r) => puzzle_start(&scn, r).map(|_| ()),
                        Err(e) => Err(CliError::Message(first_line(e))),
                    };
                    if let Err(e) = loaded {
                        let why = first_line(&e);
                        out.push((
                            f,
                            (
                                None,
                                format!("{:<6} does not load: {why}", p.side.to_string()),
                            ),
                        ));
                        continue;
                    }
                    let text = crate::data::read_data_file(&f)
                        .map(|b| String::from_utf8_lossy(&b).into_owned())
                        .unwrap_or_default();
                    let name = if scn.def.name.is_empty() {
                        f.display().to_string()
                    } else {
                        scn.def.name.clone()
                    };
                    (
                        difficulty_of(&text),
                        format!("{:<6} {name}", p.side.to_string()),
                    )
                }
                // Not a puzzle (a variant or a plain scenario beside them): not listed.
                None => continue,
            },
            Err(d) => (
                None,
                format!(
                    "?      does not load: {}",
                    d.iter().next().map_or(String::new(), |x| x.to_string())
                ),
            ),
        };
        out.push((f, line));
    }
    out
}
