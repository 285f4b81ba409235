//! A game being played by people, one implementation for every front end:
//! the terminal (`terminal.rs`, `puzzle.rs`) and the studio's Play and
//! Puzzles pages (`server/play/`, `server/puzzles.rs`). What a front end
//! adds is only its input and output; what the game does with an answer,
//! and what undo may take back, is decided here once, so the terminal and
//! the studio cannot drift apart.

pub mod answer;
pub mod undo;
