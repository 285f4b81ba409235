//! The evidence board's one question (R8.3): how many face-up informants
//! are connected to Nixon's picture through face-up evidence only?

use crate::game::model::SpaceSet;
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
    let mut count = 0;
    for y in touched.intersection(board.informant_set).iter() {
        if let SpaceKind::Informant(p) = board.spaces[y.index()].kind {
            if s.pictures.get(p.index()) == Some(&PicLoc::Pinned { face_up: true }) {
                count += 1;
                if count >= cap {
                    return count;
                }
            }
        }
    }
    count
}
