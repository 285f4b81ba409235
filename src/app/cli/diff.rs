//! `watergate diff`: what a game changes against another (by default the
//! game `--data`/`--variant` name against the shipped one). The comparison
//! is `data::diff`; this module reads the two games and prints.

use super::{CliError, CliResult, GameArgs};
use crate::app::diff::{diff, Change};
use crate::data::GameSource;
use clap::Args;
use serde_json::{json, Value};
use std::io::Write;

#[derive(Args, Debug)]
#[command(
    after_help = "Compares two games: FROM (--from; default the shipped game) against the \
game --data/--variant name (default also the shipped game). Cards are compared field by field \
(the fields of the card files), scripts as unified diffs, and the board, tokens, game numbers and \
settings, and momentum cards field by field. Both games must load (`watergate check`). \
Exit 0 whether or not they differ; 2 if either game does not load.

With --json: {\"from\", \"to\", \"differences\": [...]}, each difference tagged by \"kind\": \
\"field\" (thing, file, field, old, new), \"items\" (a list that grew or shrank: thing, file, field, \
removed, added), \"added\" / \"removed\" (thing, file; a script's whole text as text), \"text\" (a script: thing, file, unified). \
Field paths are those of the RON file: `value`, `settings.named_colour_locked`, `spaces[\"e2c\"].kind`; \
a list's places count from 0, so the text names a momentum card's `spaces[4]` also as its space 5.

Examples:
  watergate diff --data mydata                        the edited copy against the shipped game
  watergate diff --variant v.ron                      what a variant changes
  watergate diff --from olddata --data newdata        any two data folders
  watergate diff --from v1.ron --variant v2.ron       two variants of the shipped game
  watergate diff --data mydata --variant v.ron --from base
                                                      what the variant changes in mydata"
)]
pub struct DiffArgs {
    /// The game to compare from, as simulate's --against: `shipped`, `base` (the --data game without --variant), a data root DIR, or a variant FILE (applied to the --data game, else the shipped one).
    #[arg(long, value_name = "shipped|base|DIR|FILE", default_value = "shipped")]
    pub from: String,
    /// Print the differences as JSON (`from`, `to`, `differences`: a list of changes tagged by `kind`).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub game: GameArgs,
}

/// What `--from` names, as `simulate --against` reads the same words: a
/// variant file is applied to the `--data` game (the shipped one without
/// it), and `base` is the `--data` game without the variant.
fn from_source(spec: &str, data: Option<&std::path::Path>) -> Result<GameSource, CliError> {
    crate::lab::report::PlayedGame::against_source(spec, data).map_err(|e| match e {
        crate::lab::report::LoadError::Data(d) => CliError::Data(d),
        crate::lab::report::LoadError::Message(_) => CliError::Message(format!(
            "--from {spec}: no such folder or file; expected `shipped`, `base` (the --data game without --variant), a data folder (holding cards/ and scripts/) or a variant file"
        )),
    })
}

pub fn run(a: &DiffArgs) -> CliResult {
    let from = from_source(&a.from, a.game.data.as_deref())?;
    let to = a.game.source();
    // Both must be games: every problem of either is reported as by `check`.
    let old = from.dataset().map_err(CliError::Data)?;
    let new = to.dataset().map_err(CliError::Data)?;
    let changes = diff(&old, &new).map_err(CliError::Data)?;
    let mut out = super::output::stdout();
    if a.json {
        let v = json!({
            "from": from.plain_label(),
            "to": to.plain_label(),
            "differences": changes,
        });
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        )?;
        return Ok(());
    }
    write!(out, "{}", text(&from.label(), &to.label(), &changes))?;
    Ok(())
}

fn show(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// A momentum card's field path with the space's number as the card, the
/// rules and its scripts count it (from 1): the path counts list places
/// from 0, as the RON file's order does, so `spaces[4]` is space 5.
fn with_space_number(thing: &str, field: &str) -> String {
    let place = thing
        .starts_with("momentum card ")
        .then(|| field.strip_prefix("spaces["))
        .flatten()
        .and_then(|rest| rest.split_once(']'))
        .and_then(|(n, _)| n.parse::<usize>().ok());
    match place {
        Some(n) => format!("{field} (space {})", n + 1),
        None => field.to_string(),
    }
}

/// The differences for a reader: one heading per thing, then its changes.
pub fn text(from: &str, to: &str, changes: &[Change]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    if changes.is_empty() {
        let _ = writeln!(out, "no differences between {from} and {to}");
        return out;
    }
    let _ = writeln!(out, "from {from} to {to}:");
    let mut heading = String::new();
    for c in changes {
        let (thing, file) = match c {
            Change::Field { thing, file, .. }
            | Change::Items { thing, file, .. }
            | Change::Added { thing, file, .. }
            | Change::Removed { thing, file, .. }
            | Change::Text { thing, file, .. } => (thing, file),
        };
        let here = if thing.ends_with(file.as_str()) {
            thing.clone()
        } else {
            format!("{thing} ({file})")
        };
        let group = matches!(
            c,
            Change::Field { .. } | Change::Items { .. } | Change::Text { .. }
        );
        if group && here != heading {
            let _ = writeln!(out, "{here}");
            heading = here.clone();
        } else if !group {
            heading.clear();
        }
        match c {
            Change::Field {
                thing,
                field,
                old,
                new,
                ..
            } => {
                let field = with_space_number(thing, field);
                let _ = writeln!(out, "  {field}: {} → {}", show(old), show(new));
            }
            Change::Items {
                field,
                removed,
                added,
                ..
            } => {
                for v in removed {
                    let _ = writeln!(out, "  {field}: − {}", show(v));
                }
                for v in added {
                    let _ = writeln!(out, "  {field}: + {}", show(v));
                }
            }
            Change::Added { text, .. } => {
                let _ = writeln!(out, "added {here}");
                for line in text.iter().flat_map(|t| t.lines()) {
                    let _ = writeln!(out, "  +{line}");
                }
            }
            Change::Removed { text, .. } => {
                let _ = writeln!(out, "removed {here}");
                for line in text.iter().flat_map(|t| t.lines()) {
                    let _ = writeln!(out, "  -{line}");
                }
            }
            Change::Text { unified, .. } => {
                for line in unified.lines() {
                    let _ = writeln!(out, "  {line}");
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "{} difference{}",
        changes.len(),
        if changes.len() == 1 { "" } else { "s" }
    );
    out
}
