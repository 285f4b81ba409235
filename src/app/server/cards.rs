//! `GET /api/cards`: every card of the current rules — the 40 player cards
//! and the 2 momentum cards — as the Cards page draws them (gallery and
//! print-and-play sheet, `assets/studio/cards.js`). Each field the data
//! labels a placeholder (`provenance.placeholders` in the card file) comes
//! with the open question that explains it (docs/open-questions.md, D1–D7),
//! so the page can mark it.

use super::AppState;
use crate::game::model::{Colour, Side};
use crate::game::rules::{Card, MomentumCard, Requirement, Rules};
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

pub fn routes() -> Router<AppState> {
    Router::new().route("/cards", get(cards))
}

async fn cards(State(st): State<AppState>) -> Json<CardsDoc> {
    Json(document(&st.current_rules()))
}

/// The whole set, in card-number order.
#[derive(Serialize, Debug)]
pub struct CardsDoc {
    pub game: String,
    pub fingerprint: String,
    pub cards: Vec<CardDoc>,
}

/// One card as printed: a player card (`kind: "player"`) or a momentum
/// card (`kind: "momentum"`, with its spaces).
#[derive(Serialize, Debug)]
pub struct CardDoc {
    pub kind: &'static str,
    pub number: u16,
    pub id: String,
    pub name: String,
    pub side: Side,
    #[serde(rename = "type")]
    pub card_type: Option<&'static str>,
    pub reaction: bool,
    pub value: Option<u8>,
    pub colours: Vec<&'static str>,
    pub informant: Option<String>,
    pub steps: Option<u8>,
    pub requirement: Option<String>,
    pub action_text: String,
    pub quote: String,
    pub spaces: Vec<SpaceDoc>,
    pub file: String,
    pub placeholders: Vec<Placeholder>,
}

#[derive(Serialize, Debug)]
pub struct SpaceDoc {
    pub space: usize,
    pub title: Option<String>,
    pub text: Option<String>,
}

/// A field whose value is a placeholder, and the open question about it.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Placeholder {
    pub field: String,
    /// `D1`…`D7`, when the field is one the open questions name.
    pub question: Option<&'static str>,
    /// The question's anchor in docs/open-questions.md (`d2`).
    pub anchor: Option<String>,
}

/// Which open question covers a placeholder field (the fields each of
/// D1–D7 in docs/open-questions.md names).
pub fn question_of(field: &str) -> Option<&'static str> {
    Some(match field {
        "number" => "D1",
        "value" | "colours" => "D2",
        "steps" => "D3",
        "spaces" => "D6",
        "quote" => "D7",
        _ => return None,
    })
}

pub(crate) fn placeholders(fields: &[String]) -> Vec<Placeholder> {
    fields
        .iter()
        .map(|f| {
            let question = question_of(f);
            Placeholder {
                field: f.clone(),
                question,
                anchor: question.map(str::to_ascii_lowercase),
            }
        })
        .collect()
}

fn requirement(r: &Rules, q: &Requirement) -> String {
    match q {
        Requirement::PictureInSupply(p) => format!(
            "{}'s picture is in the potential informant supply",
            r.pictures[p.index()].name
        ),
        Requirement::NotFirstTurnOfRound => "not on your first turn of the round".into(),
        Requirement::All(list) => list
            .iter()
            .map(|q| requirement(r, q))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

fn player(r: &Rules, c: &Card) -> CardDoc {
    CardDoc {
        kind: "player",
        number: c.number,
        id: c.id.clone(),
        name: c.name.clone(),
        side: c.side,
        card_type: Some(c.card_type.name()),
        reaction: c.is_reaction(),
        value: Some(c.value),
        colours: Colour::ALL
            .into_iter()
            .filter(|k| c.colours.contains(*k))
            .map(Colour::name)
            .collect(),
        informant: c.informant.map(|p| r.pictures[p.index()].name.clone()),
        steps: c.steps,
        requirement: c
            .requirement
            .as_ref()
            .map(|q| requirement(r, q))
            .filter(|t| !t.is_empty()),
        action_text: c.action_text.clone(),
        quote: c.quote.clone(),
        spaces: Vec::new(),
        file: c.file.clone(),
        placeholders: placeholders(&c.placeholders),
    }
}

fn momentum(m: &MomentumCard) -> CardDoc {
    CardDoc {
        kind: "momentum",
        number: m.number,
        id: m.id.clone(),
        name: m.name.clone(),
        side: m.side,
        card_type: None,
        reaction: false,
        value: None,
        colours: Vec::new(),
        informant: None,
        steps: None,
        requirement: None,
        action_text: String::new(),
        quote: String::new(),
        spaces: m
            .spaces
            .iter()
            .enumerate()
            .map(|(i, s)| SpaceDoc {
                space: i + 1,
                title: s.title.clone(),
                text: s.text.clone(),
            })
            .collect(),
        file: m.file.clone(),
        placeholders: placeholders(&m.placeholders),
    }
}

/// Every card of `r`, by number (player cards and momentum cards together,
/// as the box numbers them).
pub fn document(r: &Rules) -> CardsDoc {
    let mut cards: Vec<CardDoc> = r
        .cards
        .iter()
        .map(|c| player(r, c))
        .chain(r.momentum_cards.iter().map(momentum))
        .collect();
    cards.sort_by_key(|c| (c.number, c.id.clone()));
    CardsDoc {
        game: r.name.clone(),
        fingerprint: crate::formats::log::fingerprint_hex(r),
        cards,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gallery_holds_all_42_cards_in_number_order_r1_7() {
        let doc = document(&crate::data::shipped());
        assert_eq!(doc.cards.len(), 42);
        assert_eq!(doc.cards.iter().filter(|c| c.kind == "momentum").count(), 2);
        let numbers: Vec<u16> = doc.cards.iter().map(|c| c.number).collect();
        assert_eq!(numbers, (1..=42).collect::<Vec<u16>>());
    }

    #[test]
    fn placeholder_fields_name_their_open_question() {
        let doc = document(&crate::data::shipped());
        // Follow the money! is known to be card 42 (D1): its number is no
        // placeholder, its value is (D2).
        let ftm = doc.cards.iter().find(|c| c.number == 42).unwrap();
        assert!(!ftm.placeholders.iter().any(|p| p.field == "number"));
        let value = ftm
            .placeholders
            .iter()
            .find(|p| p.field == "value")
            .unwrap();
        assert_eq!(value.question, Some("D2"));
        assert_eq!(value.anchor.as_deref(), Some("d2"));
        // Nixon's momentum card: spaces 1-4 unknown (D6).
        let nixon = doc.cards.iter().find(|c| c.number == 1).unwrap();
        assert_eq!(nixon.kind, "momentum");
        assert!(nixon.placeholders.iter().any(|p| p.question == Some("D6")));
        assert_eq!(nixon.spaces.len(), 5);
    }

    #[test]
    fn every_placeholder_the_shipped_data_labels_has_a_question() {
        for c in document(&crate::data::shipped()).cards {
            for p in &c.placeholders {
                assert!(p.question.is_some(), "{}: {}", c.id, p.field);
            }
        }
    }
}
