//! A game being played by people, one implementation for every front end:
//! the terminal (`terminal.rs`, `puzzle.rs`) and the studio's Play and
//! Puzzles pages (`server/play/`, `server/puzzles.rs`). What a front end
//! adds is only its input and output; what the game does with an answer,
//! and what undo may take back, is decided here once, so the terminal and
//! the studio cannot drift apart.

pub mod answer;
pub mod chance;
pub mod puzzle;
pub mod undo;

use crate::game::model::Side;

/// A side as a sentence names it: "the Editor", "Nixon".
pub fn the(side: Side) -> &'static str {
    match side {
        Side::Editor => "the Editor",
        Side::Nixon => "Nixon",
    }
}

/// A clause as the terminal prints it, a sentence: `cannot undo: …` →
/// `Cannot undo: ….`
pub fn sentence(clause: &str) -> String {
    let mut c = clause.chars();
    let capital: String = c
        .next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default();
    format!("{capital}.")
}
