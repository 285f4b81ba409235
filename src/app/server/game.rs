//! `GET /api/game`: the public part of the game every page draws with — the
//! board's spaces (with their coordinates from board.ron, slip colours and
//! informants), its threads, the pictures, both momentum cards, the game's
//! numbers — and the data's current problems. Nothing here is secret: it is
//! the box's contents, the same for both players.

use super::AppState;
use crate::game::model::Side;
use crate::game::rules::{Rules, SpaceKind};
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

pub fn routes() -> Router<AppState> {
    Router::new().route("/game", get(game))
}

#[derive(Serialize)]
struct Space {
    id: String,
    /// `nixon`, `informant` or `evidence`.
    kind: &'static str,
    /// The slip's colour, for an evidence space.
    slip: Option<&'static str>,
    /// The informant's picture name, for an informant space.
    informant: Option<String>,
    /// Axial hex coordinates (q, r).
    q: i8,
    r: i8,
}

#[derive(Serialize)]
struct MomentumSpace {
    title: Option<String>,
    text: Option<String>,
}

#[derive(Serialize)]
struct MomentumCard {
    name: String,
    side: Side,
    spaces: Vec<MomentumSpace>,
}

#[derive(Serialize)]
struct Picture {
    name: String,
    full_name: String,
}

#[derive(Serialize)]
pub(super) struct Game {
    name: String,
    /// Where the game comes from, in words.
    source: String,
    fingerprint: String,
    spaces: Vec<Space>,
    /// Pairs of space ids joined by a thread (each pair once).
    threads: Vec<(String, String)>,
    pictures: Vec<Picture>,
    momentum_cards: Vec<MomentumCard>,
    numbers: crate::game::rules::Numbers,
    agents: Vec<&'static str>,
    problems: Vec<super::Problem>,
    /// Set when the data folder has no scenarios/: the puzzles and
    /// variants listed are the shipped ones (`scenarios::shipped_note`).
    #[serde(skip_serializing_if = "Option::is_none")]
    scenarios_note: Option<String>,
}

async fn game(State(st): State<AppState>) -> Json<Game> {
    let r = st.current_rules();
    let problems = match st.problems.read() {
        Ok(p) => p.clone(),
        Err(p) => p.into_inner().clone(),
    };
    let mut g = describe(&r, st.source.label(), problems);
    g.scenarios_note = super::scenarios::shipped_note(&st.source);
    Json(g)
}

pub(super) fn describe(r: &Rules, source: String, problems: Vec<super::Problem>) -> Game {
    let b = &r.board;
    let spaces = b
        .spaces
        .iter()
        .map(|s| {
            let (kind, slip, informant) = match s.kind {
                SpaceKind::Nixon => ("nixon", None, None),
                SpaceKind::Informant(p) => {
                    ("informant", None, Some(r.pictures[p.index()].name.clone()))
                }
                SpaceKind::Evidence(c) => ("evidence", Some(c.name()), None),
            };
            Space {
                id: s.id.clone(),
                kind,
                slip,
                informant,
                q: s.at.0,
                r: s.at.1,
            }
        })
        .collect();
    let mut threads = Vec::new();
    for (i, ns) in b.neighbours.iter().enumerate() {
        for n in ns {
            if n.index() > i {
                threads.push((b.spaces[i].id.clone(), b.spaces[n.index()].id.clone()));
            }
        }
    }
    Game {
        name: r.name.clone(),
        source,
        fingerprint: crate::formats::log::fingerprint_hex(r),
        spaces,
        threads,
        pictures: r
            .pictures
            .iter()
            .map(|p| Picture {
                name: p.name.clone(),
                full_name: p.full_name.clone(),
            })
            .collect(),
        momentum_cards: r
            .momentum_cards
            .iter()
            .map(|m| MomentumCard {
                name: m.name.clone(),
                side: m.side,
                spaces: m
                    .spaces
                    .iter()
                    .map(|s| MomentumSpace {
                        title: s.title.clone(),
                        text: s.text.clone(),
                    })
                    .collect(),
            })
            .collect(),
        numbers: r.numbers.clone(),
        agents: vec!["random", "heuristic", "ismcts:300", "ismcts:1000"],
        problems,
        scenarios_note: None,
    }
}
