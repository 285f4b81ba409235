//! The studio's areas beside Play — Replay, Puzzles, Cards, How to play,
//! Live data, Lab — and what they keep between requests. `router` merges [`routes`];
//! `AppState::pages` holds [`Pages`].

use super::store::Store;
use super::AppState;
use super::{cards, docs, lab, live, puzzles, replay};
use crate::data::GameSource;
use crate::game::rules::Rules;
use axum::Router;

/// What the areas keep: puzzle attempts and the puzzle lists as last read,
/// lab runs, the live-data channel.
pub struct Pages {
    pub puzzles: Store<puzzles::Attempt>,
    pub puzzle_list: puzzles::ListCache,
    pub lab: Store<lab::Job>,
    pub live: tokio::sync::watch::Sender<live::Status>,
}

impl Pages {
    pub fn new(source: &GameSource, rules: &Rules) -> Pages {
        Pages {
            puzzles: Store::new(puzzles::MAX_ATTEMPTS, puzzles::IDLE),
            puzzle_list: puzzles::ListCache::default(),
            lab: Store::new(lab::MAX_JOBS, lab::IDLE),
            live: live::channel(
                source.data.is_some(),
                crate::formats::log::fingerprint_hex(rules),
            ),
        }
    }
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .merge(cards::routes())
        .merge(docs::routes())
        .merge(replay::routes())
        .merge(puzzles::routes())
        .merge(live::routes())
        .merge(lab::routes())
}
