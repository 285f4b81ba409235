//! The whole table of a position, every hidden thing shown: what Replay
//! (a log is written for both players, so its reader sees the whole game)
//! and Puzzles (the solver sees the whole position, so the player does
//! too) draw. It has the shape of a seat's view in Play (`play/seat.rs`),
//! so `board.js` draws both, plus both hands and the bag's contents count.
//!
//! Never send this for a game in progress between two players: Play sends
//! a seat's view, built from its `View` only.

use super::play::seat::{card_face, open_table, CardFace, OpenTable, OutcomeView, PerSide};
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use serde::Serialize;

#[derive(Serialize)]
pub struct Table {
    /// The open part of the table (Nixon's view: every kind on the track).
    #[serde(flatten)]
    pub open: OpenTable,
    /// Both hands, face up.
    pub hands: PerSide<Vec<CardFace>>,
    pub deck_sizes: PerSide<usize>,
    pub discards: PerSide<Vec<CardFace>>,
    pub removed: Vec<CardFace>,
    pub bag: usize,
    pub outcome: Option<OutcomeView>,
}

fn per_side<T>(f: impl Fn(Side) -> T) -> PerSide<T> {
    PerSide {
        editor: f(Side::Editor),
        nixon: f(Side::Nixon),
    }
}

/// The whole table of `s`.
pub fn whole(r: &Rules, s: &State) -> Table {
    // Nixon's view shows every track token's kind (R4.3: he knows his
    // face-down evidence) and every board token; hands come from the state.
    let v = View::new(r, s, Side::Nixon);
    let faces =
        |list: &[crate::game::model::CardId]| list.iter().map(|c| card_face(r, *c)).collect();
    Table {
        open: open_table(r, &v),
        hands: per_side(|side| faces(s.hand(side))),
        deck_sizes: per_side(|side| s.deck(side).len()),
        discards: per_side(|side| faces(s.discards(side))),
        removed: faces(s.removed()),
        bag: s.bag().len(),
        outcome: s.outcome().map(|o| OutcomeView {
            winner: o.winner,
            cause: o.cause.key(),
            text: format!("{} wins — {}.", o.winner, o.cause.describe()),
        }),
    }
}
