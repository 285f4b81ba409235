//! `watergate cards`: the card list as a table or JSON.

use super::CliResult;
use crate::rules::{Card, Rules};
use serde::Serialize;
use std::io::Write;

#[derive(Serialize)]
struct CardJson<'a> {
    #[serde(flatten)]
    card: &'a Card,
    colour_names: Vec<&'static str>,
    informant_name: Option<&'a str>,
    reaction: bool,
}

pub fn run(r: &Rules, json: bool) -> CliResult {
    let mut out = super::output::stdout();
    let mut cards: Vec<&Card> = r.cards.iter().collect();
    cards.sort_by_key(|c| c.number);
    if json {
        let list: Vec<CardJson> = cards
            .iter()
            .map(|c| CardJson {
                card: c,
                colour_names: c.colours.iter().map(|k| k.name()).collect(),
                informant_name: c.informant.map(|p| r.pictures[p.index()].name.as_str()),
                reaction: c.is_reaction(),
            })
            .collect();
        let text = serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{:>3}  {:<6}  {:<11}  {:>3}  {:<18}  name / action",
        "no", "side", "type", "val", "colours"
    )?;
    let indent = 3 + 2 + 6 + 2 + 11 + 2 + 3 + 2 + 18 + 2;
    for c in cards {
        let kind = if c.is_reaction() {
            format!("{}*", c.card_type)
        } else {
            c.card_type.to_string()
        };
        writeln!(
            out,
            "{:>3}  {:<6}  {:<11}  {:>3}  {:<18}  {}",
            c.number,
            c.side.name(),
            kind,
            c.value,
            c.colours.to_string(),
            c.name
        )?;
        for line in crate::render::wrap(&c.action_text, 100usize.saturating_sub(indent).max(30)) {
            writeln!(out, "{:indent$}{}", "", line, indent = indent)?;
        }
    }
    writeln!(out, "* reaction card (R6)")?;
    Ok(())
}
