//! A quick static judgement of a position, for the heuristic player and for
//! ending MCTS playouts early. Positive favours the Editor. It reads a full
//! state, so agents call it only on states they sampled themselves
//! (`View::determinize`).

use crate::game::model::*;
use crate::game::rules::Rules;
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
    // Evidence spaces by what entering them costs: a face-up token 0, an
    // empty space 1; a face-down token blocks.
    let (mut face_up, mut face_down) = (SpaceSet::EMPTY, SpaceSet::EMPTY);
    for loc in s.evidence() {
        if let EvLoc::Board { space, face_up: up } = loc {
            if *up {
                face_up.insert(*space);
            } else {
                face_down.insert(*space);
            }
        }
    }
    let free = face_up.intersection(b.evidence_spaces);
    let empty = b.evidence_spaces.minus(face_up).minus(face_down);
    let neighbours = |set: SpaceSet| {
        let mut out = SpaceSet::EMPTY;
        for x in set.iter() {
            if let Some(n) = b.neighbour_sets.get(x.index()) {
                out = out.union(*n);
            }
        }
        out
    };
    // Shortest paths from Nixon by whole levels of bit sets (no heap): a
    // level is closed through free spaces at the same cost, then the empty
    // spaces next to it are the next level. Unreached, or FAR and beyond,
    // is FAR. Space ids are bytes, so a byte per space covers any board.
    let mut dist = [FAR as u8; 256];
    let mut reached = SpaceSet::EMPTY;
    let mut level = SpaceSet::EMPTY;
    level.insert(b.nixon);
    for d in 0..FAR {
        let mut grow = level;
        while !grow.is_empty() {
            reached = reached.union(grow);
            grow = neighbours(grow).intersection(free).minus(reached);
            level = level.union(grow);
        }
        for x in level.iter() {
            dist[x.index()] = d as u8;
        }
        level = neighbours(level).intersection(empty).minus(reached);
        if level.is_empty() {
            break;
        }
        reached = reached.union(level);
    }
    let mut per_informant = [0u32; 256];
    let n = b.informant_spaces.len().min(256);
    for (p, space) in b.informant_spaces.iter().take(n).enumerate() {
        let picture = match s.pictures()[p] {
            PicLoc::Pinned { face_up: true } => 0,
            PicLoc::Supply => 1,
            PicLoc::Pinned { face_up: false } => FAR,
        };
        let path = b.neighbours[space.index()]
            .iter()
            .map(|v| dist[v.index()] as u32)
            .min()
            .unwrap_or(FAR);
        per_informant[p] = (path + picture).min(FAR);
    }
    let per_informant = &mut per_informant[..n];
    per_informant.sort_unstable();
    per_informant
        .iter()
        .take(r.numbers.informants_to_connect as usize)
        .sum()
}

/// The Editor's advantage in a position, roughly in "points": a win is
/// worth ±100; a momentum token on Nixon's card about −3.
pub fn editor_advantage(r: &Rules, s: &State) -> f64 {
    if let Some(o) = s.outcome() {
        return if o.winner == Side::Editor {
            100.0
        } else {
            -100.0
        };
    }
    let len = r.numbers.track_length as f64;
    let to_win = r.numbers.momentum_to_win as f64;
    let nixon_m = s.momentum_cards().nixon as f64;
    let mut v = 0.0;
    v -= 1.5 * connection_need(r, s) as f64;
    // Each momentum token on Nixon's card weighs more as the end nears.
    v -= 3.0 * nixon_m * (1.0 + nixon_m / to_win);
    v += 0.6 * s.momentum_cards().editor as f64;
    if let Some(p) = s.momentum_token() {
        v += 2.0 * p as f64 / len;
    }
    // Few momentum tokens left: Nixon's empty-supply win comes nearer (R8.2).
    v -= 4.0 / (s.momentum_supply() as f64 + 1.0);
    if let Some(p) = s.initiative_token() {
        v += 0.4 * p as f64 / len;
    }
    for t in s.track() {
        if let Some((p, _)) = s.on_track(*t) {
            v += 0.5 * p as f64 / len;
        }
    }
    // Reaction cards in hand are worth keeping for their moment.
    for side in Side::BOTH {
        let held = s
            .hand(side)
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
