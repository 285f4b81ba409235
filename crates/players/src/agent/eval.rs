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
    let free = face_up.intersection(b.evidence_spaces());
    let empty = b.evidence_spaces().minus(face_up).minus(face_down);
    // Shortest paths from Nixon by whole levels of bit sets (no heap):
    // level d is every space at cost d. A level is closed through free
    // spaces at the same cost, collecting the spaces around it; the empty
    // ones among those are the next level. FAR and beyond count as FAR.
    let mut levels = [SpaceSet::EMPTY; FAR as usize];
    let mut depth = 0;
    let mut reached = SpaceSet::EMPTY;
    let mut level = SpaceSet::EMPTY;
    level.insert(b.nixon);
    while depth < levels.len() && !level.is_empty() {
        let (mut grow, mut around) = (level, SpaceSet::EMPTY);
        while !grow.is_empty() {
            reached = reached.union(grow);
            let next = b.around(grow);
            around = around.union(next);
            grow = next.intersection(free).minus(reached);
            level = level.union(grow);
        }
        levels[depth] = level;
        depth += 1;
        level = around.intersection(empty).minus(reached);
        reached = reached.union(level);
    }
    // Each informant's need (its nearest level next to it, and its picture),
    // counted by value: the cheapest `informants_to_connect` are summed
    // from the counts, smallest first.
    let mut count = [0u32; FAR as usize + 1];
    for (p, space) in b.informant_spaces.iter().enumerate() {
        let picture = match s.pictures()[p] {
            PicLoc::Pinned { face_up: true } => 0,
            PicLoc::Supply => 1,
            PicLoc::Pinned { face_up: false } => FAR,
        };
        let next_to = b.next_to(*space);
        let path = levels[..depth]
            .iter()
            .position(|l| !l.intersection(next_to).is_empty())
            .map_or(FAR, |d| d as u32);
        count[(path + picture).min(FAR) as usize] += 1;
    }
    let (mut need, mut left) = (0, r.numbers.informants_to_connect as u32);
    for (value, n) in count.iter().enumerate() {
        let take = (*n).min(left);
        need += take * value as u32;
        left -= take;
        if left == 0 {
            break;
        }
    }
    need
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
