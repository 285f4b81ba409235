//! `watergate puzzle FILE`: attempt a puzzle at the terminal against the
//! solver's best defence (see `src/app/puzzle.rs`).

use super::{CliError, CliResult};
use crate::app::puzzle::{attempt, AttemptConfig, Ending, Puzzle};
use crate::formats::scenario::Scenario;
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PuzzleArgs {
    /// The puzzle: a scenario file with a `puzzle` claim.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Seed of the chance draws [default: a random one: a fixed seed would
    /// let a second attempt know what chance gives].
    #[arg(short, long, value_name = "SEED", value_parser = super::values::seed, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// The solver's node limit for each answer and hint.
    #[arg(long, value_name = "N", default_value_t = 20_000_000, value_parser = super::values::count)]
    pub nodes: u64,
    /// Plain text: no ANSI colours.
    #[arg(long, alias = "no-color")]
    pub no_colour: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
}

pub fn run(a: &PuzzleArgs) -> CliResult {
    let scn = Scenario::from_file(&a.file).map_err(CliError::Data)?;
    let Some(def) = &scn.def.puzzle else {
        return Err(CliError::Message(format!(
            "{}: not a puzzle (it has no `puzzle` claim); try `watergate play --scenario`",
            scn.display
        )));
    };
    let rules = scn.rules(&a.game.source()).map_err(CliError::Data)?;
    let mut state = scn.start(&rules).map_err(CliError::Data)?;
    scn.play(&rules, &mut state).map_err(CliError::Data)?;
    if let Some(o) = state.outcome() {
        return Err(CliError::Message(format!(
            "{}: the game is already over there ({} won)",
            scn.display, o.winner
        )));
    }
    let goal = scn.goal().unwrap_or_default();
    let cfg = AttemptConfig {
        seed: match a.seed {
            Some(seed) => seed,
            None => super::play::unchosen_seed()?,
        },
        node_limit: a.nodes,
        colour: !a.no_colour && std::io::stdout().is_terminal(),
        thinking: thinking_bar,
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

/// While the solver thinks: the positions searched, on a bar on stderr
/// (when it is a terminal and `--quiet` is off, as every bar).
fn thinking_bar(node_limit: u64) -> Box<dyn Fn(u64) -> bool> {
    let bar = super::progress::Progress::up_to(node_limit, "positions searched");
    Box::new(move |n| {
        bar.set(n);
        true
    })
}
