//! Chance outcomes a front end draws itself, by their weights: a puzzle
//! attempt plays explicit chance (so the solver and the attempt agree on
//! what a random event may give), and the terminal draws for a position
//! that asks for chance. One draw for both, from the front end's own
//! generator, so the game's is never touched.

use crate::game::engine::{Choice, DecisionKind};
use crate::game::rules::Rules;
use crate::game::state::State;
use rand::Rng;
use rand_pcg::Pcg64Mcg;

/// One of the chance `options` of `s`, by the weights its decision gives
/// them (alike when it gives none).
pub fn draw(r: &Rules, rng: &mut Pcg64Mcg, s: &State, options: &[Choice]) -> Choice {
    let weights = match s.decision_kind(r) {
        DecisionKind::Chance { weights, .. } if weights.len() == options.len() => weights,
        _ => vec![1; options.len()],
    };
    let total: u64 = weights.iter().map(|w| *w as u64).sum::<u64>().max(1);
    let mut x = rng.next_u64() % total;
    for (c, w) in options.iter().zip(&weights) {
        if x < *w as u64 {
            return *c;
        }
        x -= *w as u64;
    }
    options[0]
}
