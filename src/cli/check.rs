//! `watergate check`: load and validate the data, every problem at once.

use super::{dataset, CliError, CliResult};
use crate::model::Side;
use crate::rules::Action;
use std::io::Write;

pub fn run(dir: Option<&std::path::Path>, variant: Option<&std::path::Path>) -> CliResult {
    let ds = dataset(dir)?;
    let (rules, variant_name) = match variant {
        None => (crate::data::load(&ds).map_err(CliError::Data)?, None),
        Some(v) => {
            let v = crate::variant::Variant::from_file(v).map_err(CliError::Data)?;
            (
                v.rules(&ds).map_err(CliError::Data)?,
                Some(v.def.name.clone()),
            )
        }
    };
    let mut out = super::output::stdout();
    if let Some(name) = variant_name {
        writeln!(out, "variant `{name}` applies cleanly")?;
    }
    let dynamic = rules
        .cards
        .iter()
        .filter(|c| matches!(c.action, Action::Dynamic { .. }))
        .count();
    let count = |s: Side| rules.cards.iter().filter(|c| c.side == s).count();
    writeln!(out,
        "ok: {} ({}): {} player cards ({} Nixon, {} Editor) and 2 momentum cards, {} board spaces, {} evidence tokens ({} in the bag), {} pictures, {} scripts ({} read the game)",
        rules.name,
        match dir {
            Some(d) => d.display().to_string(),
            None => "built-in data".to_string(),
        },
        rules.cards.len(),
        count(Side::Nixon),
        count(Side::Editor),
        rules.board.spaces.len(),
        rules.evidence.len(),
        rules.evidence.iter().filter(|t| t.in_bag).count(),
        rules.pictures.len(),
        rules.scripts.units.len(),
        dynamic,
    )?;
    Ok(())
}
