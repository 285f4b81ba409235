//! Words every front end of a session uses alike, so the terminal, the
//! puzzles and the studio name sides and put refusals the same way.

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
