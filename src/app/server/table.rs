//! The table of a position as Replay and Puzzles draw it: a seat's table
//! in Play's shape (`play/seat.rs`'s `SeatTable`, built by the same
//! `seat_table`), so `table.js` draws all three pages from the same
//! fields; and, where the whole table is shown, every hidden thing too.
//!
//! The whole table is what Replay shows by default (a log is written for
//! both players, so its reader sees the whole game) and what Puzzles shows
//! (the solver sees the whole position, so the player does too): the
//! track's face-down kinds and both hands face up.
//!
//! Never send the whole table for a game in progress between two players:
//! Play sends a seat's view, built from its `View` only.

use super::play::seat::{open_table, seat_table, Face, Faces, OutcomeView, PerSide, SeatTable};
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use serde::Serialize;

#[derive(Serialize)]
pub struct Table {
    /// Whose view the table is drawn from: `hand` is this side's.
    pub seat: Side,
    /// Whether every hidden thing is shown (`hands`, every track kind).
    pub whole: bool,
    /// The table as `seat` sees it, in Play's shape; on the whole table
    /// with every track token's kind.
    #[serde(flatten)]
    pub shown: SeatTable,
    /// Both hands face up: only on the whole table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<PerSide<Vec<Face>>>,
    pub outcome: Option<OutcomeView>,
}

fn per_side<T>(f: impl Fn(Side) -> T) -> PerSide<T> {
    PerSide {
        editor: f(Side::Editor),
        nixon: f(Side::Nixon),
    }
}

/// The whole table of `s`, drawn from `seat`'s side: what `seat` sees,
/// with the open part as Nixon sees it (every kind on the track: R4.3, he
/// knows his face-down evidence; board tokens both sides see) and both
/// hands from the state.
pub fn whole(r: &Rules, faces: &Faces, s: &State, seat: Side) -> Table {
    let mut shown = seat_table(r, faces, &View::new(r, s, seat));
    shown.open = open_table(r, &View::new(r, s, Side::Nixon));
    Table {
        seat,
        whole: true,
        shown,
        hands: Some(per_side(|side| {
            s.hand(side).iter().map(|c| faces.get(*c)).collect()
        })),
        outcome: outcome(s),
    }
}

/// The table of `s` as `side` sees it: exactly what Play sends that seat.
pub fn seen_by(r: &Rules, faces: &Faces, s: &State, side: Side) -> Table {
    Table {
        seat: side,
        whole: false,
        shown: seat_table(r, faces, &View::new(r, s, side)),
        hands: None,
        outcome: outcome(s),
    }
}

fn outcome(s: &State) -> Option<OutcomeView> {
    s.outcome().map(|o| OutcomeView {
        winner: o.winner,
        cause: o.cause.key(),
        text: format!("{} wins — {}.", o.winner, o.cause.describe()),
    })
}
