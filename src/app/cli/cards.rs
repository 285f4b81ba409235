//! `watergate cards`: the card list as a table, or as JSON with the stable
//! schema of docs/formats/cards-json.md (bump [`SCHEMA_VERSION`] and the
//! document together on any change a reader could notice).

use super::CliResult;
use crate::game::model::{CardType, Colour, Part, Side};
use crate::game::rules::{Card, Moved, Requirement, Rules};
use clap::Args;
use serde::Serialize;
use std::io::Write;

/// The version of the `cards --json` schema.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole document.
#[derive(Serialize)]
struct CardsJson<'a> {
    schema: &'static str,
    version: u32,
    game: &'a str,
    cards: Vec<CardJson<'a>>,
    momentum_cards: Vec<MomentumJson<'a>>,
}

/// One player card: the fields of its RON file, with names for indices and masks.
#[derive(Serialize)]
struct CardJson<'a> {
    number: u16,
    id: &'a str,
    name: &'a str,
    side: Side,
    #[serde(rename = "type")]
    card_type: CardType,
    value: u8,
    colours: Vec<Colour>,
    informant: Option<&'a str>,
    steps: Option<u8>,
    requirement: Option<RequirementJson<'a>>,
    reaction: Option<ReactionJson>,
    action_text: &'a str,
    script: &'a str,
    quote: &'a str,
    file: &'a str,
    placeholders: &'a [String],
}

/// A requirement for the action part (R5.11), tagged by `kind`.
#[derive(Serialize)]
#[serde(tag = "kind")]
enum RequirementJson<'a> {
    PictureInSupply { informant: &'a str },
    NotFirstTurnOfRound,
    All { all: Vec<RequirementJson<'a>> },
}

/// The opponent's play a reaction card answers (R6).
#[derive(Serialize)]
struct ReactionJson {
    part: Part,
    card_types: Vec<CardType>,
    moves: Option<Moved>,
}

#[derive(Serialize)]
struct MomentumJson<'a> {
    number: u16,
    id: &'a str,
    name: &'a str,
    side: Side,
    spaces: Vec<MomentumSpaceJson<'a>>,
    file: &'a str,
}

#[derive(Serialize)]
struct MomentumSpaceJson<'a> {
    space: usize,
    title: Option<&'a str>,
    text: Option<&'a str>,
    script: Option<&'a str>,
}

fn requirement<'a>(r: &'a Rules, q: &Requirement) -> RequirementJson<'a> {
    match q {
        Requirement::PictureInSupply(p) => RequirementJson::PictureInSupply {
            informant: r.pictures[p.index()].name.as_str(),
        },
        Requirement::NotFirstTurnOfRound => RequirementJson::NotFirstTurnOfRound,
        Requirement::All(list) => RequirementJson::All {
            all: list.iter().map(|q| requirement(r, q)).collect(),
        },
    }
}

fn card<'a>(r: &'a Rules, c: &'a Card) -> CardJson<'a> {
    CardJson {
        number: c.number,
        id: &c.id,
        name: &c.name,
        side: c.side,
        card_type: c.card_type,
        value: c.value,
        colours: Colour::ALL
            .into_iter()
            .filter(|k| c.colours.contains(*k))
            .collect(),
        informant: c.informant.map(|p| r.pictures[p.index()].name.as_str()),
        steps: c.steps,
        requirement: c.requirement.as_ref().map(|q| requirement(r, q)),
        reaction: c.reaction.as_ref().map(|t| ReactionJson {
            part: t.part,
            card_types: t.types.types(),
            moves: t.moves,
        }),
        action_text: &c.action_text,
        script: &c.script,
        quote: &c.quote,
        file: &c.file,
        placeholders: &c.placeholders,
    }
}

/// The `cards --json` document for `r`, fields in the schema's order.
pub fn json(r: &Rules) -> Result<String, serde_json::Error> {
    let mut cards: Vec<&Card> = r.cards.iter().collect();
    cards.sort_by_key(|c| c.number);
    let mut momentum: Vec<&crate::game::rules::MomentumCard> = r.momentum_cards.iter().collect();
    momentum.sort_by_key(|m| m.number);
    let doc = CardsJson {
        schema: "watergate-cards",
        version: SCHEMA_VERSION,
        game: &r.name,
        cards: cards.into_iter().map(|c| card(r, c)).collect(),
        momentum_cards: momentum
            .into_iter()
            .map(|m| MomentumJson {
                number: m.number,
                id: &m.id,
                name: &m.name,
                side: m.side,
                spaces: m
                    .spaces
                    .iter()
                    .enumerate()
                    .map(|(i, s)| MomentumSpaceJson {
                        space: i + 1,
                        title: s.title.as_deref(),
                        text: s.text.as_deref(),
                        script: s.script.as_deref(),
                    })
                    .collect(),
                file: &m.file,
            })
            .collect(),
    };
    serde_json::to_string_pretty(&doc)
}

/// `watergate cards`'s arguments.
#[derive(Args, Debug)]
pub struct CardsArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// Prints the player cards as a table, or as JSON.
pub fn run(a: &CardsArgs) -> CliResult {
    let (r, json_out) = (&a.game.rules()?, a.json);
    let mut out = super::output::stdout();
    let mut cards: Vec<&Card> = r.cards.iter().collect();
    cards.sort_by_key(|c| c.number);
    if json_out {
        let text = json(r).map_err(|e| e.to_string())?;
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
        for line in
            crate::formats::render::wrap(&c.action_text, 100usize.saturating_sub(indent).max(30))
        {
            writeln!(out, "{:indent$}{}", "", line, indent = indent)?;
        }
    }
    writeln!(out, "* reaction card (R6)")?;
    Ok(())
}
