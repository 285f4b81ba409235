//! `watergate scenario FILE`: load a position, play its choices, check its
//! expectations, and print the resulting position.

use super::output::errln;
use super::{CliError, CliResult};
use crate::formats::render::{self, Style};
use crate::formats::scenario::{save, PlayStop, Scenario};
use crate::game::engine::notation::format_choice;
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

/// `watergate scenario`'s arguments.
#[derive(Args, Debug)]
pub struct ScenarioArgs {
    /// The scenario file (RON): a position, choices to play, expectations.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print JSON (the position in scenario form, the outcome, failed expectations).
    #[arg(long)]
    pub json: bool,
    /// Also save the resulting position as a scenario file.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// A scenario's choices that stopped: a card script that failed is blamed
/// (exit 3), naming the choice that ran it; a bad choice is the file's.
pub fn script_stop(scn: &Scenario, stop: PlayStop) -> CliError {
    match stop {
        PlayStop::Input(d) => CliError::Data(d),
        PlayStop::Script { at, choice, error } => CliError::Script {
            error,
            context: format!("while {} played {at} `{choice}`", scn.display),
        },
    }
}

/// Who decides next, as expectations write it: `editor`, `nixon`,
/// `chance`, or `none` once the game is over.
fn to_move_key(actor: Option<crate::game::engine::Actor>) -> &'static str {
    use crate::game::engine::Actor;
    match actor {
        Some(Actor::Player(side)) => side.key(),
        Some(Actor::Chance) => "chance",
        None => "none",
    }
}

/// Plays the scenario's choices, checks its expectations and prints the position.
pub fn run(a: &ScenarioArgs, color: super::ColorChoice) -> CliResult {
    let (file, json, save_to) = (a.file.as_path(), a.json, a.save.as_deref());
    let game = &a.game.source();
    if let Some(out) = save_to {
        super::paths::output_file("--save", out)?;
        // `scenario s.ron --save s.ron` would put a bare position in place
        // of the user's file, its comments and expectations gone.
        let mut inputs = vec![("the scenario file", file)];
        inputs.extend(a.game.variant.as_deref().map(|v| ("the --variant file", v)));
        super::paths::distinct(&inputs, &[("--save", out)])?;
        super::paths::outside_games(&[("the game", game)], &[("--save", out)])?;
    }
    let scn = Scenario::from_file(file).map_err(CliError::Data)?;
    let rules = scn.rules(game).map_err(CliError::Data)?;
    let mut state = scn.start(&rules).map_err(CliError::Data)?;
    let (failures, played) = scn
        .play_and_check_played(&rules, &mut state)
        .map_err(|stop| script_stop(&scn, stop))?;
    if let Some(out) = save_to {
        let mut saved = save::scenario_of(
            &rules,
            &state,
            &scn.def.name,
            "saved by `watergate scenario --save`",
        );
        // The position is only right with the rules it was reached with:
        // the data, the variants and the inline edits travel with it.
        for note in save::RulesOrigin::of(game, Some(&scn)).stamp(&mut saved, Some(out)) {
            super::output::errln!("note: {note}");
        }
        let text = save::to_text(&saved);
        std::fs::write(out, text)
            .map_err(|e| CliError::Message(format!("cannot write {}: {e}", out.display())))?;
    }
    let mut out = super::output::stdout();
    let mut options = Vec::new();
    let actor = state.legal(&rules, &mut options);
    if json {
        // The name, or null for a file without one; who decides next as
        // expectations write it (docs/formats/scenario.md).
        let v = json!({
            "scenario": (!scn.def.name.is_empty()).then_some(&scn.def.name),
            "file": scn.display,
            "played": scn.choices(),
            "forced": played.iter().filter(|p| p.starts_with("(forced) ")).collect::<Vec<_>>(),
            "outcome": state.outcome(),
            "to_move": to_move_key(actor),
            "options": options.iter().map(|c| format_choice(&rules, &state, *c)).collect::<Vec<_>>(),
            "expectations_failed": failures.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            "position": save::position_of(&rules, &state),
        });
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        )?;
    } else {
        let st = Style {
            colour: color.enabled(),
            viewer: None,
        };
        if !scn.def.name.is_empty() {
            writeln!(out, "{}", st.bold(&scn.def.name))?;
        }
        if !played.is_empty() {
            writeln!(out, "played: {}", played.join(" · "))?;
        }
        writeln!(out)?;
        write!(out, "{}", render::position(&rules, &state, &st))?;
        match actor {
            Some(a) => writeln!(
                out,
                "\nNext: {} chooses among {}",
                match a {
                    crate::game::engine::Actor::Player(s) => s.name().to_string(),
                    crate::game::engine::Actor::Chance => "chance".into(),
                },
                options
                    .iter()
                    .map(|c| format_choice(&rules, &state, *c))
                    .collect::<Vec<_>>()
                    .join(", ")
            )?,
            None => writeln!(out, "\nThe game is over.")?,
        }
        let expects = scn.def.expect.is_some()
            || scn
                .def
                .steps
                .iter()
                .any(|st| matches!(st, crate::formats::scenario::format::StepDef::Expect(_)));
        if expects {
            if failures.is_empty() {
                writeln!(out, "expectations: all met")?;
            } else {
                writeln!(out, "expectations: {} failed", failures.len())?;
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        for f in failures.iter() {
            errln!("{f}");
        }
        Err(CliError::Failed(format!(
            "{} expectation(s) failed",
            failures.len()
        )))
    }
}
