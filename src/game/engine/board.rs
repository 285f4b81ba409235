//! The evidence board's one question (R8.3): how many face-up informants
//! are connected to Nixon's picture through face-up evidence only?

use crate::game::rules::{Rules, SpaceKind};
use crate::game::state::{EvLoc, PicLoc, State};

/// Face-up informants connected to Nixon: a breadth-first walk from the
/// centre through spaces holding face-up evidence (R8.3: empty spaces and
/// face-down tokens break a path; paths may share tokens).
pub fn connected_informants(r: &Rules, s: &State) -> usize {
    let board = &r.board;
    let n = board.spaces.len();
    let mut open = vec![false; n];
    for loc in &s.evidence {
        if let EvLoc::Board {
            space,
            face_up: true,
        } = loc
        {
            open[space.index()] = true;
        }
    }
    let mut seen = vec![false; n];
    let mut queue = vec![board.nixon.index()];
    seen[board.nixon.index()] = true;
    let mut count = 0;
    while let Some(x) = queue.pop() {
        for y in &board.neighbours[x] {
            let y = y.index();
            if seen[y] {
                continue;
            }
            match board.spaces[y].kind {
                SpaceKind::Evidence(_) if open[y] => {
                    seen[y] = true;
                    queue.push(y);
                }
                SpaceKind::Informant(p) => {
                    seen[y] = true;
                    if s.pictures[p.index()] == (PicLoc::Pinned { face_up: true }) {
                        count += 1;
                    }
                }
                _ => {}
            }
        }
    }
    count
}
