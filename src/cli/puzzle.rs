//! `watergate puzzle FILE`: attempt a puzzle at the terminal against the
//! solver's best defence (see `src/puzzle.rs`).

use super::{CliError, CliResult};
use crate::data::DataSet;
use crate::puzzle::{attempt, AttemptConfig, Ending, Puzzle};
use crate::rules::Rules;
use crate::scenario::Scenario;
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct PuzzleArgs {
    /// The puzzle: a scenario file with a `puzzle` claim.
    pub file: PathBuf,
    /// Apply this house-rule variant first (before the puzzle's own variant and edits).
    #[arg(long, value_name = "FILE")]
    pub variant: Option<PathBuf>,
    /// Seed of the chance draws (default: 1).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The solver's node limit for each answer and hint.
    #[arg(long, default_value_t = 20_000_000)]
    pub nodes: u64,
    /// Plain text: no ANSI colours.
    #[arg(long, alias = "no-color")]
    pub no_colour: bool,
}

/// The scenario's rules with the command line's data and variant, in the
/// order every command uses: base data (`--data`, else the scenario's
/// `data`, never two different ones), `--variant`, the scenario's
/// `variant`, its inline edits.
pub fn scenario_rules(
    scn: &Scenario,
    data: Option<&Path>,
    variant: Option<&Path>,
) -> Result<Rules, CliError> {
    if data.is_none() && variant.is_none() {
        return scn.rules().map_err(CliError::Data);
    }
    let base = match (data, &scn.def.data) {
        (Some(d), Some(own)) => {
            let own_dir = scn.dir.join(own);
            let same = match (d.canonicalize(), own_dir.canonicalize()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            };
            if !same {
                return Err(CliError::Message(format!(
                    "--data {} and the scenario's data `{own}` name different data sets; give one",
                    d.display()
                )));
            }
            DataSet::from_dir(d).map_err(CliError::Data)?
        }
        (Some(d), None) => DataSet::from_dir(d).map_err(CliError::Data)?,
        (None, Some(own)) => DataSet::from_dir(&scn.dir.join(own)).map_err(CliError::Data)?,
        (None, None) => DataSet::embedded(),
    };
    let mut ds = base;
    if let Some(v) = variant {
        ds = crate::variant::Variant::from_file(v)
            .and_then(|v| v.apply(&ds))
            .map_err(CliError::Data)?;
    }
    if let Some(v) = &scn.def.variant {
        ds = crate::variant::Variant::from_file(&scn.dir.join(v))
            .and_then(|v| v.apply(&ds))
            .map_err(CliError::Data)?;
    }
    scn.rules_with_edits(&ds).map_err(CliError::Data)
}

pub fn run(data: Option<&Path>, a: &PuzzleArgs) -> CliResult {
    let scn = Scenario::from_file(&a.file).map_err(CliError::Data)?;
    let Some(def) = &scn.def.puzzle else {
        return Err(CliError::Message(format!(
            "{}: not a puzzle (it has no `puzzle` claim); try `watergate play --scenario`",
            scn.display
        )));
    };
    let rules = scenario_rules(&scn, data, a.variant.as_deref())?;
    let mut state = scn.start(&rules).map_err(CliError::Data)?;
    scn.play(&rules, &mut state).map_err(CliError::Data)?;
    if let Some(o) = state.outcome {
        return Err(CliError::Message(format!(
            "{}: the game is already over there ({} won)",
            scn.display, o.winner
        )));
    }
    let goal = scn.goal().unwrap_or_default();
    let cfg = AttemptConfig {
        seed: a.seed,
        node_limit: a.nodes,
        colour: !a.no_colour && std::io::stdout().is_terminal(),
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
