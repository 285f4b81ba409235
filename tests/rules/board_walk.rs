//! R8.3 counted two ways: the engine's walk over the board's bit words
//! (`connected_informants`, issue 38) against a plain walk written here
//! from the rule's words, space by space, at every decision of random
//! games.

use std::collections::VecDeque;
use watergate::game::model::SpaceId;
use watergate::game::rules::{Rules, SpaceKind};
use watergate::game::state::{PicLoc, State};

/// R8.3 as written: a face-up informant counts when a path of spaces
/// holding face-up evidence joins its space to Nixon's (empty spaces and
/// face-down tokens break a path).
fn connected_by_the_rule(r: &Rules, s: &State) -> usize {
    let board = &r.board;
    let n = board.spaces.len();
    let open = |x: SpaceId| matches!(s.board_token(x), Some((_, true)));
    let mut reached = vec![false; n];
    reached[board.nixon.index()] = true;
    let mut queue = VecDeque::from([board.nixon]);
    let mut count = 0;
    let mut counted = vec![false; n];
    while let Some(x) = queue.pop_front() {
        for y in board.next_to(x).iter() {
            match board.spaces[y.index()].kind {
                SpaceKind::Informant(p) => {
                    let face_up = s.pictures()[p.index()] == PicLoc::Pinned { face_up: true };
                    if face_up && !counted[y.index()] {
                        counted[y.index()] = true;
                        count += 1;
                    }
                }
                _ if open(y) && !reached[y.index()] => {
                    reached[y.index()] = true;
                    queue.push_back(y);
                }
                _ => {}
            }
        }
    }
    count
}

#[test]
fn r8_3_the_engines_walk_counts_as_the_rule_at_every_decision_of_random_games() {
    let r = watergate::data::shipped();
    let mut options = Vec::new();
    let (mut decisions, mut with_one, mut with_two) = (0, 0, 0);
    for seed in 0..400u64 {
        let mut s = State::new(&r, seed);
        let mut x = seed;
        let mut next = s.legal(&r, &mut options);
        loop {
            let engine = watergate::game::engine::connected_informants(&r, &s);
            assert_eq!(engine, connected_by_the_rule(&r, &s), "seed {seed}");
            decisions += 1;
            with_one += usize::from(engine >= 1);
            with_two += usize::from(engine >= 2);
            if next.is_none() {
                break;
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let choice = options[(x >> 33) as usize % options.len()];
            next = s.apply_next(&r, choice, &mut options).unwrap();
        }
    }
    // The comparison saw connections, not only empty boards (two end a
    // game at once, R8.4: they are seen at its end).
    assert!(decisions > 10_000, "{decisions} decisions");
    assert!(
        with_one > 100 && with_two > 0,
        "{with_one} with one, {with_two} with two"
    );
}
