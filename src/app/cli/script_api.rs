//! `watergate script-api`: the reference of every function a card script may
//! call (docs/script-api.md is this reference), then, for the game it is
//! given, which of that game's scripts call each function — so an edited or
//! added script shows where it uses the API.

use super::CliResult;
use crate::game::rules::Rules;
use clap::Args;
use std::collections::BTreeMap;
use std::io::Write;

/// `watergate script-api`'s arguments.
#[derive(Args, Debug)]
pub struct ScriptApiArgs {
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// Prints the API reference, then which of the game's scripts call each function.
pub fn run(a: &ScriptApiArgs) -> CliResult {
    let r = a.game.rules()?;
    let mut out = super::output::stdout();
    write!(out, "{}", crate::script::api::reference())?;
    write!(out, "{}", usage(&r, &a.game.source().label()))?;
    Ok(())
}

/// For each API function, the scripts of `r` that call it.
pub fn usage(r: &Rules, label: &str) -> String {
    let mut callers: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for i in 0..r.scripts.units() {
        for name in r.scripts.calls(i) {
            if let Some(api) = crate::script::api::api_names()
                .into_iter()
                .find(|n| *n == name)
            {
                callers.entry(api).or_default().push(r.scripts.file(i));
            }
        }
    }
    let mut out = format!(
        "\n## Where {label} calls each function\n\n| function | scripts that call it |\n|---|---|\n"
    );
    for name in crate::script::api::api_names() {
        let mut list = callers.get(name).cloned().unwrap_or_default();
        list.sort();
        list.dedup();
        let cell = if list.is_empty() {
            "—".to_string()
        } else {
            list.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str(&format!("| `{name}` | {cell} |\n"));
    }
    out
}
