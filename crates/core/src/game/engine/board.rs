//! The evidence board's one question (R8.3): how many face-up informants
//! are connected to Nixon's picture through face-up evidence only?

use crate::game::model::{PictureId, SpaceSet};
use crate::game::rules::{Rules, SpaceKind};
use crate::game::state::{PicLoc, State};

/// Face-up informants connected to Nixon: a breadth-first walk from the
/// centre through spaces holding face-up evidence (R8.3: empty spaces and
/// face-down tokens break a path; paths may share tokens).
pub fn connected_informants(r: &Rules, s: &State) -> usize {
    connected_informants_capped(r, s, usize::MAX)
}

/// Whether at least `n` face-up informants are connected to Nixon (R8.3).
/// Without that many face-up pictures on the board no walk is needed.
pub(crate) fn informants_connected(r: &Rules, s: &State, n: usize) -> bool {
    let face_up = s
        .pictures
        .iter()
        .filter(|p| **p == PicLoc::Pinned { face_up: true })
        .count();
    face_up >= n && connected_informants_capped(r, s, n) >= n
}

/// The walk of `connected_informants`, stopped once `cap` are found.
/// Breadth-first over whole frontiers as bit sets: the open spaces (face-up
/// evidence) reached from the centre, then the informant spaces next to
/// the centre or to a reached space. Every informant is counted once.
fn connected_informants_capped(r: &Rules, s: &State, cap: usize) -> usize {
    let board = &r.board;
    if let Some(neighbours) = board.neighbour_words() {
        return connected_informants_in_a_word(r, s, neighbours, cap);
    }
    let mut count = 0;
    for y in informant_spaces_reached(r, s).iter() {
        if face_up_informant(r, s, y.index()) {
            count += 1;
            if count >= cap {
                return count;
            }
        }
    }
    count
}

/// The pictures of the face-up informants connected to Nixon (R8.3), in
/// board order: the walk of `connected_informants`, naming what it counts
/// (for messages; the game's checks count with the walk above).
pub fn connected_informant_pictures(r: &Rules, s: &State) -> Vec<PictureId> {
    informant_spaces_reached(r, s)
        .iter()
        .filter(|y| face_up_informant(r, s, y.index()))
        .filter_map(|y| match r.board.spaces[y.index()].kind {
            SpaceKind::Informant(p) => Some(p),
            _ => None,
        })
        .collect()
}

/// The walk itself, on whole `SpaceSet`s: the informant spaces next to the
/// centre or to an open space (face-up evidence) reached from it.
fn informant_spaces_reached(r: &Rules, s: &State) -> SpaceSet {
    let board = &r.board;
    let open = s.board_face_up.intersection(board.evidence_spaces);
    let mut reached = SpaceSet::EMPTY;
    reached.insert(board.nixon);
    let mut frontier = reached;
    // Every space next to the centre or to a reached open space.
    let mut touched = SpaceSet::EMPTY;
    while !frontier.is_empty() {
        let next = board.around(frontier);
        touched = touched.union(next);
        frontier = next.intersection(open).minus(reached);
        reached = reached.union(frontier);
    }
    touched.intersection(board.informant_set)
}

/// Whether space `y` (an informant space) holds its picture face up.
#[inline]
fn face_up_informant(r: &Rules, s: &State, y: usize) -> bool {
    match r.board.spaces[y].kind {
        SpaceKind::Informant(p) => {
            s.pictures.get(p.index()) == Some(&PicLoc::Pinned { face_up: true })
        }
        _ => false,
    }
}

/// `connected_informants_capped` on a board of at most 64 spaces (the
/// shipped one has 37): the same walk, each set one word held in a
/// register. Walked with whole `SpaceSet`s, the sets went through memory,
/// each written a word at a time and read back two words at once, which
/// the processor cannot forward from its pending stores: the walk took
/// 3.0 % of a random game's time for 1.3 % of its instructions (issue 38).
fn connected_informants_in_a_word(r: &Rules, s: &State, neighbours: &[u64], cap: usize) -> usize {
    let board = &r.board;
    let around = |mut set: u64| {
        let mut out = 0;
        while set != 0 {
            out |= neighbours[set.trailing_zeros() as usize];
            set &= set - 1;
        }
        out
    };
    let open = s.board_face_up.first_word() & board.evidence_spaces.first_word();
    // The board has at most 64 spaces, so the centre has its bit.
    let mut reached = 1u64 << board.nixon.index();
    let mut frontier = reached;
    let mut touched = 0;
    while frontier != 0 {
        let next = around(frontier);
        touched |= next;
        frontier = next & open & !reached;
        reached |= frontier;
    }
    let mut count = 0;
    let mut informants = touched & board.informant_set.first_word();
    while informants != 0 {
        let y = informants.trailing_zeros() as usize;
        informants &= informants - 1;
        if face_up_informant(r, s, y) {
            count += 1;
            if count >= cap {
                return count;
            }
        }
    }
    count
}
