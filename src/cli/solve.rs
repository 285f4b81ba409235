//! `watergate solve FILE`: can the side to move force a win?

use super::{CliError, CliResult};
use crate::data::GameSource;
use crate::engine::Actor;
use crate::scenario::Scenario;
use crate::solve::{solve, SolveConfig, Verdict};
use std::path::Path;

pub fn run(
    file: &Path,
    depth: Option<u32>,
    nodes: u64,
    show_line: bool,
    game: &GameSource,
) -> CliResult {
    let scn = Scenario::from_file(file).map_err(CliError::Data)?;
    let rules = scn.rules(game).map_err(CliError::Data)?;
    let mut state = scn.start(&rules).map_err(CliError::Data)?;
    scn.play_choices(&rules, &mut state)
        .map_err(|stop| super::scenario::script_stop(&scn, stop))?;
    let side = match (&scn.def.puzzle, state.to_move(&rules)) {
        (Some(p), _) => p.side,
        (None, Some(Actor::Player(s))) => s,
        _ => {
            return Err(CliError::Message(
                "no player is to move in this position".into(),
            ))
        }
    };
    let depth = depth.or(scn.def.puzzle.as_ref().and_then(|p| p.depth));
    let result = solve(
        &rules,
        &state,
        &SolveConfig {
            side,
            max_plies: depth,
            node_limit: nodes,
        },
    );
    if let Some(error) = result.script_error {
        return Err(CliError::Script {
            error,
            context: format!(
                "in a position the search reached from {} (the verdict does not stand)",
                scn.display
            ),
        });
    }
    let horizon = match depth {
        Some(d) => format!("within {d} decisions"),
        None => "within the round".to_string(),
    };
    match result.verdict {
        Verdict::Wins => println!("{side} can force a win {horizon}."),
        Verdict::Cannot => println!("{side} cannot force a win {horizon}."),
        Verdict::Unknown => println!(
            "unknown: the search stopped after {} positions (raise --nodes)",
            result.nodes
        ),
    }
    // The line is a puzzle's answer: printed only when asked.
    if show_line && !result.line.is_empty() {
        println!(
            "{}:",
            if result.verdict == Verdict::Wins {
                "winning line"
            } else {
                "best defence"
            }
        );
        for (i, (who, choice)) in result.line.iter().enumerate() {
            println!("  {:>2}. {who}: {choice}", i + 1);
        }
    }
    println!(
        "{} positions searched in {:.3} s",
        result.nodes,
        result.elapsed.as_secs_f64()
    );
    if let Some(p) = &scn.def.puzzle {
        let claimed = p.wins;
        let found = result.verdict == Verdict::Wins;
        if result.verdict != Verdict::Unknown && claimed != found {
            return Err(CliError::Failed(format!(
                "the puzzle claims {side} {} force a win, but the solver finds the opposite",
                if claimed { "can" } else { "cannot" }
            )));
        }
    }
    Ok(())
}
