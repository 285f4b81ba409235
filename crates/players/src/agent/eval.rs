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
    // empty space 1; a face-down token blocks. The state keeps the sets
    // of the spaces holding evidence and of those face up: before, every
    // evidence token was read to find them (issue 38).
    let (taken, face_up) = s.board_evidence();
    let free = face_up.intersection(b.evidence_spaces());
    let empty = b.evidence_spaces().minus(taken);
    let mut nixon = SpaceSet::EMPTY;
    nixon.insert(b.nixon);
    match b.neighbour_words() {
        // A board of at most 64 spaces: every set is one word, and a walk
        // step joins the words of its spaces (a third of the walk's
        // instructions on four-word sets; issue 38).
        Some(words) => need_from(
            r,
            s,
            [nixon.first_word(), free.first_word(), empty.first_word()],
            |set: u64| {
                let (mut bits, mut out) = (set, 0);
                while bits != 0 {
                    out |= words[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
                out
            },
            |space| words.get(space.index()).copied().unwrap_or(0),
        ),
        None => need_from(
            r,
            s,
            [nixon, free, empty],
            |set| b.around(set),
            |space| b.next_to(space),
        ),
    }
}

/// A set of the board's spaces as `connection_need`'s walk reads it: a
/// `SpaceSet`, or one word of it on a board of at most 64 spaces.
trait Spaces: Copy {
    const NONE: Self;
    fn or(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn but(self, other: Self) -> Self;
    fn none(self) -> bool;
}

impl Spaces for u64 {
    const NONE: u64 = 0;
    fn or(self, other: u64) -> u64 {
        self | other
    }
    fn and(self, other: u64) -> u64 {
        self & other
    }
    fn but(self, other: u64) -> u64 {
        self & !other
    }
    fn none(self) -> bool {
        self == 0
    }
}

impl Spaces for SpaceSet {
    const NONE: SpaceSet = SpaceSet::EMPTY;
    fn or(self, other: SpaceSet) -> SpaceSet {
        self.union(other)
    }
    fn and(self, other: SpaceSet) -> SpaceSet {
        self.intersection(other)
    }
    fn but(self, other: SpaceSet) -> SpaceSet {
        self.minus(other)
    }
    fn none(self) -> bool {
        self.is_empty()
    }
}

/// `connection_need` from Nixon's space, the free (face-up) and the empty
/// evidence spaces, `around` a set and `next_to` a space.
#[inline(always)]
fn need_from<S: Spaces>(
    r: &Rules,
    s: &State,
    [nixon, free, empty]: [S; 3],
    around: impl Fn(S) -> S,
    next_to: impl Fn(SpaceId) -> S,
) -> u32 {
    let b = &r.board;
    // Shortest paths from Nixon by whole levels of bit sets (no heap):
    // level d is every space at cost d. A level is closed through free
    // spaces at the same cost, collecting the spaces around it; the empty
    // ones among those are the next level. FAR and beyond count as FAR.
    let mut levels = [S::NONE; FAR as usize];
    let mut depth = 0;
    let mut reached = S::NONE;
    let mut level = nixon;
    while depth < levels.len() && !level.none() {
        let (mut grow, mut around_level) = (level, S::NONE);
        while !grow.none() {
            reached = reached.or(grow);
            let next = around(grow);
            around_level = around_level.or(next);
            grow = next.and(free).but(reached);
            level = level.or(grow);
        }
        levels[depth] = level;
        depth += 1;
        level = around_level.and(empty).but(reached);
        reached = reached.or(level);
    }
    // Each informant's need (its nearest level next to it, and its picture),
    // counted by value: the cheapest `informants_to_connect` are summed
    // from the counts, smallest first.
    let mut count = [0u32; FAR as usize + 1];
    for (p, space) in b.informant_spaces.iter().enumerate() {
        let picture = match s.pictures()[p] {
            PicLoc::Pinned { face_up: true } => 0,
            PicLoc::Supply => 1,
            PicLoc::Pinned { face_up: false } => {
                // Secured by Nixon: FAR whatever its path (none looked for).
                count[FAR as usize] += 1;
                continue;
            }
        };
        let next_to = next_to(*space);
        let path = levels[..depth]
            .iter()
            .position(|l| !l.and(next_to).none())
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
