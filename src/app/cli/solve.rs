//! `watergate solve FILE`: can the side to move force a win?

use super::{CliError, CliResult};
use crate::formats::scenario::Scenario;
use crate::game::engine::Actor;
use crate::players::solve::{solve_watched, DepthCounts, SolveConfig, Verdict};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `watergate solve`'s arguments.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The scenario file holding the position (a puzzle's claim is checked against the answer).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Search at most N decisions (plies) ahead [default: the puzzle's depth, else to the end of the round].
    #[arg(long, value_name = "N", value_parser = super::values::depth, allow_negative_numbers = true)]
    pub depth: Option<u32>,
    /// Count only the side's own decisions in --depth (the opponent's and chance's are free), as `mine --depth` does [default: --depth counts every decision, even for a puzzle that counts its own; without --depth, a puzzle's depth is counted as the puzzle counts it].
    #[arg(long, requires = "depth")]
    pub own: bool,
    /// Give up after this many positions (the answer is then "unknown").
    #[arg(long, value_name = "N", default_value_t = 20_000_000, value_parser = super::values::count, allow_negative_numbers = true)]
    pub nodes: u64,
    #[command(flatten)]
    pub game: super::GameArgs,
    /// Also print the winning line (or the best defence): a puzzle's answer.
    #[arg(long)]
    pub show_line: bool,
}

/// Solves the scenario's position and prints the verdict.
pub fn run(a: &SolveArgs) -> CliResult {
    let (file, depth, nodes, show_line) = (a.file.as_path(), a.depth, a.nodes, a.show_line);
    let game = &a.game.source();
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
    // `--depth` counts every decision unless `--own`; without it, the
    // puzzle's own depth is counted as the puzzle counts it.
    let (depth, counts) = match (depth, &scn.def.puzzle) {
        (Some(d), _) if a.own => (Some(d), DepthCounts::Own),
        (Some(d), _) => (Some(d), DepthCounts::Every),
        (None, Some(p)) => (p.depth, p.depth_counts),
        (None, None) => (None, DepthCounts::Every),
    };
    let bar = super::progress::Progress::up_to(nodes, "positions");
    let stop = super::interrupt::watch();
    let result = solve_watched(
        &rules,
        &state,
        &SolveConfig {
            side,
            max_plies: depth,
            counts,
            node_limit: nodes,
        },
        &|n| {
            bar.set(n);
            !stop.load(std::sync::atomic::Ordering::SeqCst)
        },
    );
    bar.finish();
    if let Some(error) = result.script_error {
        return Err(CliError::Script {
            error: Box::new(error),
            context: format!(
                "in a position the search reached from {} (the verdict does not stand)",
                scn.display
            ),
        });
    }
    let interrupted = super::interrupt::requested();
    let mut out = super::output::stdout();
    let horizon = match depth {
        Some(d) => format!("within {}", counts.count(d)),
        None => "within the round".to_string(),
    };
    match result.verdict {
        Verdict::Wins => writeln!(out, "{side} can force a win {horizon}.")?,
        Verdict::Cannot => writeln!(out, "{side} cannot force a win {horizon}.")?,
        Verdict::Unknown if interrupted => writeln!(
            out,
            "unknown (partial): interrupted after {}",
            positions(result.nodes)
        )?,
        Verdict::Unknown => writeln!(
            out,
            "unknown: the search stopped after {} (raise --nodes)",
            positions(result.nodes)
        )?,
    }
    // The line is a puzzle's answer: printed only when asked.
    if show_line && !result.line.is_empty() {
        writeln!(
            out,
            "{}:",
            if result.verdict == Verdict::Wins {
                "winning line"
            } else {
                "best defence"
            }
        )?;
        let forced = forced_after(&rules, &state, &result.line);
        for (i, (who, choice)) in result.line.iter().enumerate() {
            writeln!(out, "  {:>2}. {who}: {choice}", i + 1)?;
            for f in forced.get(i).into_iter().flatten() {
                writeln!(out, "      {f}")?;
            }
        }
    }
    writeln!(
        out,
        "{} searched in {:.3} s",
        positions(result.nodes),
        result.elapsed.as_secs_f64()
    )?;
    if interrupted {
        return Err(CliError::Interrupted(format!(
            "the search stopped after {}",
            positions(result.nodes)
        )));
    }
    if result.verdict == Verdict::Unknown {
        return Err(CliError::Unknown(String::new()));
    }
    // The claim is checked at its own horizon only: another --depth asks
    // another question.
    let claim = scn
        .def
        .puzzle
        .as_ref()
        .filter(|p| (p.depth, p.depth_counts) == (depth, counts));
    if let (None, Some(p)) = (claim, &scn.def.puzzle) {
        // Said, so that a silence is not read as the claim confirmed.
        let within =
            |d: Option<u32>, c: DepthCounts| d.map_or("the round".to_string(), |d| c.count(d));
        writeln!(
            out,
            "(not the puzzle's claim, which is about {}: it is checked at that horizon)",
            within(p.depth, p.depth_counts),
        )?;
    }
    if let Some(p) = claim {
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

/// "1 position", "229 positions".
fn positions(n: u64) -> String {
    crate::game::wording::count(n as usize, "position")
}

/// The forced moves after each move of a solver's line from `start`,
/// as [`crate::formats::scenario::Forced::line`] writes them: the engine takes a decision with one
/// option on its own, so the line does not list it. The line is played
/// again with chance as decisions, as the solver played it; where it does
/// not replay (it always should), the rest has none.
fn forced_after(
    r: &crate::game::rules::Rules,
    start: &crate::game::state::State,
    line: &[(String, String)],
) -> Vec<Vec<String>> {
    use crate::formats::scenario::Heard;
    use crate::game::engine::notation::parse_choice;
    let mut cur = start.clone();
    cur.set_explicit_chance(true);
    let mut options = Vec::new();
    let mut out = Vec::new();
    for (_, text) in line {
        if cur.legal(r, &mut options).is_none() {
            break;
        }
        let Ok(c) = parse_choice(r, &cur, text, &options) else {
            break;
        };
        let mut events = Vec::new();
        let mut heard = Heard {
            events: &mut events,
            forced: Vec::new(),
        };
        if cur.apply_observed(r, c, &mut heard).is_err() {
            break;
        }
        out.push(heard.forced.iter().map(|f| f.line(r)).collect());
    }
    out
}

#[cfg(test)]
mod tests {
    /// "1 position searched", not "1 positions".
    #[test]
    fn positions_are_counted_in_words() {
        assert_eq!(super::positions(1), "1 position");
        assert_eq!(super::positions(229), "229 positions");
    }
}
