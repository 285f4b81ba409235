//! The evidence board's one question (R8.3): how many face-up informants
//! are connected to Nixon's picture through face-up evidence only?

use crate::game::model::{SpaceId, SpaceSet};
use crate::game::rules::{Rules, SpaceKind};
use crate::game::state::{EvLoc, PicLoc, State};

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
fn connected_informants_capped(r: &Rules, s: &State, cap: usize) -> usize {
    let board = &r.board;
    let mut open = SpaceSet::EMPTY;
    for loc in &s.evidence {
        if let EvLoc::Board {
            space,
            face_up: true,
        } = loc
        {
            open.insert(*space);
        }
    }
    // Each space enters the walk at most once: a stack of 256 holds any board.
    let mut seen = SpaceSet::EMPTY;
    let mut stack = [SpaceId(0); 256];
    stack[0] = board.nixon;
    let mut top = 1;
    seen.insert(board.nixon);
    let mut count = 0;
    while top > 0 {
        top -= 1;
        let x = stack[top];
        for &y in &board.neighbours[x.index()] {
            if seen.contains(y) {
                continue;
            }
            match board.spaces[y.index()].kind {
                SpaceKind::Evidence(_) if open.contains(y) => {
                    seen.insert(y);
                    stack[top] = y;
                    top += 1;
                }
                SpaceKind::Informant(p) => {
                    seen.insert(y);
                    if s.pictures[p.index()] == (PicLoc::Pinned { face_up: true }) {
                        count += 1;
                        if count >= cap {
                            return count;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    count
}
