//! The whole table of a position, every hidden thing shown: what Replay
//! (a log is written for both players, so its reader sees the whole game)
//! and Puzzles (the solver sees the whole position, so the player does
//! too) draw. It has the shape of a seat's view in Play (`play/seat.rs`),
//! so `board.js` draws both, plus both hands and the bag's contents count.
//!
//! Never send this for a game in progress between two players: Play sends
//! a seat's view, built from its `View` only.

use super::play::seat::{
    board, card_face, momentum, phase_name, pictures, track, BoardToken, CardFace, Momentum,
    OutcomeView, PerSide, PictureView, TrackToken,
};
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use serde::Serialize;

#[derive(Serialize)]
pub struct Table {
    pub round: u16,
    pub phase: &'static str,
    pub turn: Side,
    pub initiative: Side,
    pub initiative_token: Option<i8>,
    pub momentum_token: Option<i8>,
    pub track_length: i8,
    pub momentum: Momentum,
    pub track: Vec<TrackToken>,
    pub board: Vec<BoardToken>,
    pub pictures: Vec<PictureView>,
    pub connected_informants: usize,
    pub informants_to_connect: u8,
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
        round: s.round(),
        phase: phase_name(s.phase()),
        turn: s.turn(),
        initiative: s.initiative(),
        initiative_token: s.initiative_token(),
        momentum_token: s.momentum_token(),
        track_length: r.numbers.track_length,
        momentum: momentum(r, &v),
        track: track(&v),
        board: board(r, &v),
        pictures: pictures(r, &v),
        connected_informants: v.connected_informants(),
        informants_to_connect: r.numbers.informants_to_connect,
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
