//! A quick static judgement of a position, for the heuristic player and for
//! ending MCTS playouts early. Positive favours the Editor. It reads a full
//! state, so agents call it only on states they sampled themselves
//! (`View::determinize`).

use crate::game::model::*;
use crate::game::rules::{Rules, SpaceKind};
use crate::game::state::*;

const FAR: u32 = 20;

/// How many more face-up evidence tokens and recruited pictures the Editor
/// needs for the informants he is closest to connecting (R8.3): for each
/// informant, a shortest path to Nixon where a face-up token costs 0, an
/// empty space 1 and a face-down token blocks, plus 1 if the picture is
/// still in the supply (blocked if Nixon secured it). The cheapest
/// `informants_to_connect` informants are added up (shared tokens counted twice).
pub fn connection_need(r: &Rules, s: &State) -> u32 {
    let b = &r.board;
    let n = b.spaces.len();
    let mut cost = vec![1u32; n];
    for loc in &s.evidence {
        if let EvLoc::Board { space, face_up } = loc {
            cost[space.index()] = if *face_up { 0 } else { FAR };
        }
    }
    // 0-1 breadth-first search from Nixon through evidence spaces.
    let mut dist = vec![FAR; n];
    let mut queue = std::collections::VecDeque::new();
    dist[b.nixon.index()] = 0;
    queue.push_back(b.nixon.index());
    while let Some(x) = queue.pop_front() {
        for y in &b.neighbours[x] {
            let y = y.index();
            if !matches!(b.spaces[y].kind, SpaceKind::Evidence(_)) {
                continue;
            }
            let d = (dist[x] + cost[y]).min(FAR);
            if d < dist[y] {
                dist[y] = d;
                if cost[y] == 0 {
                    queue.push_front(y);
                } else {
                    queue.push_back(y);
                }
            }
        }
    }
    let mut per_informant: Vec<u32> = b
        .informant_spaces
        .iter()
        .enumerate()
        .map(|(p, space)| {
            let picture = match s.pictures[p] {
                PicLoc::Pinned { face_up: true } => 0,
                PicLoc::Supply => 1,
                PicLoc::Pinned { face_up: false } => FAR,
            };
            let path = b.neighbours[space.index()]
                .iter()
                .map(|v| dist[v.index()])
                .min()
                .unwrap_or(FAR);
            (path + picture).min(FAR)
        })
        .collect();
    per_informant.sort();
    per_informant
        .iter()
        .take(r.numbers.informants_to_connect as usize)
        .sum()
}

/// The Editor's advantage in a position, roughly in "points": a win is
/// worth ±100; a momentum token on Nixon's card about −3.
pub fn editor_advantage(r: &Rules, s: &State) -> f64 {
    if let Some(o) = s.outcome {
        return if o.winner == Side::Editor {
            100.0
        } else {
            -100.0
        };
    }
    let len = r.numbers.track_length as f64;
    let to_win = r.numbers.momentum_to_win as f64;
    let nixon_m = s.momentum_cards[Side::Nixon.index()] as f64;
    let mut v = 0.0;
    v -= 1.5 * connection_need(r, s) as f64;
    // Each momentum token on Nixon's card weighs more as the end nears.
    v -= 3.0 * nixon_m * (1.0 + nixon_m / to_win);
    v += 0.6 * s.momentum_cards[Side::Editor.index()] as f64;
    if let Some(p) = s.momentum_token {
        v += 2.0 * p as f64 / len;
    }
    // Few momentum tokens left: Nixon's empty-supply win comes nearer (R8.2).
    v -= 4.0 / (s.momentum_supply as f64 + 1.0);
    if let Some(p) = s.initiative_token {
        v += 0.4 * p as f64 / len;
    }
    for t in &s.track {
        if let Some((p, _)) = s.on_track(*t) {
            v += 0.5 * p as f64 / len;
        }
    }
    // Reaction cards in hand are worth keeping for their moment.
    for side in Side::BOTH {
        let held = s.hands[side.index()]
            .iter()
            .filter(|c| r.card(**c).is_reaction())
            .count() as f64;
        v += side.sign() as f64 * 0.8 * held;
    }
    v
}

/// The advantage from `side`'s point of view.
pub fn advantage(r: &Rules, s: &State, side: Side) -> f64 {
    side.sign() as f64 * editor_advantage(r, s)
}

/// A win probability for the Editor from the advantage (for truncated playouts).
pub fn editor_win_chance(r: &Rules, s: &State) -> f64 {
    let a = editor_advantage(r, s);
    1.0 / (1.0 + (-a / 4.0).exp())
}
