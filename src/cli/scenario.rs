//! `watergate scenario FILE`: load a position, play its choices, check its
//! expectations, and print the resulting position.

use super::output::errln;
use super::{CliError, CliResult};
use crate::engine::notation::format_choice;
use crate::render::{self, Style};
use crate::scenario::{save, Scenario};
use serde_json::json;
use std::io::Write;
use std::path::Path;

pub fn run(
    file: &Path,
    json: bool,
    save_to: Option<&Path>,
    color: super::ColorChoice,
) -> CliResult {
    if let Some(out) = save_to {
        super::paths::output_file("--save", out)?;
    }
    let scn = Scenario::from_file(file).map_err(CliError::Data)?;
    let rules = scn.rules().map_err(CliError::Data)?;
    let (state, failures) = scn.run(&rules).map_err(CliError::Data)?;
    if let Some(out) = save_to {
        let text = save::to_text(&save::scenario_of(
            &rules,
            &state,
            &scn.def.name,
            "saved by `watergate scenario --save`",
        ));
        std::fs::write(out, text)
            .map_err(|e| CliError::Message(format!("cannot write {}: {e}", out.display())))?;
    }
    let mut out = super::output::stdout();
    let mut options = Vec::new();
    let actor = state.legal(&rules, &mut options);
    if json {
        let v = json!({
            "scenario": scn.def.name,
            "file": scn.display,
            "played": scn.def.play,
            "outcome": state.outcome,
            "to_move": actor,
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
        if !scn.def.play.is_empty() {
            writeln!(out, "played: {}", scn.def.play.join(" · "))?;
        }
        writeln!(out)?;
        write!(out, "{}", render::position(&rules, &state, &st))?;
        match actor {
            Some(a) => writeln!(
                out,
                "\nNext: {} chooses among {}",
                match a {
                    crate::engine::Actor::Player(s) => s.name().to_string(),
                    crate::engine::Actor::Chance => "chance".into(),
                },
                options
                    .iter()
                    .map(|c| format_choice(&rules, &state, *c))
                    .collect::<Vec<_>>()
                    .join(", ")
            )?,
            None => writeln!(out, "\nThe game is over.")?,
        }
        if scn.def.expect.is_some() {
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
