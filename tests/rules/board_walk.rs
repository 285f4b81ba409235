//! R8.3 counted two ways: the engine's walk over the board's bit words
//! (`connected_informants`, issue 38) against a plain walk written here
//! from the rule's words, space by space, at every decision of random
//! games: on the shipped board (one word) and on a board of 68 spaces
//! (the walk over whole sets, for boards of more than 64).

use std::collections::VecDeque;
use watergate::data::raw::{BoardDef, BoardSpaceDef, SpaceKindDef};
use watergate::data::{self, DataSet};
use watergate::game::model::{Colour, SpaceId};
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

/// Plays `games` random games (seeds `0..games`) and compares the
/// engine's count with the rule's at every decision and at each game's
/// end: the decisions seen, and of them those with one and with two
/// connected informants.
fn compare_walks(r: &Rules, games: u64) -> (usize, usize, usize) {
    let mut options = Vec::new();
    let (mut decisions, mut with_one, mut with_two) = (0, 0, 0);
    for seed in 0..games {
        let mut s = State::new(r, seed);
        let mut x = seed;
        let mut next = s.legal(r, &mut options);
        loop {
            let engine = watergate::game::engine::connected_informants(r, &s);
            assert_eq!(engine, connected_by_the_rule(r, &s), "seed {seed}");
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
            next = s.apply_next(r, choice, &mut options).unwrap();
        }
    }
    (decisions, with_one, with_two)
}

#[test]
fn r8_3_the_engines_walk_counts_as_the_rule_at_every_decision_of_random_games() {
    let r = watergate::data::shipped();
    let (decisions, with_one, with_two) = compare_walks(&r, 400);
    // The comparison saw connections, not only empty boards (two end a
    // game at once, R8.4: they are seen at its end).
    assert!(decisions > 10_000, "{decisions} decisions");
    assert!(
        with_one > 100 && with_two > 0,
        "{with_one} with one, {with_two} with two"
    );
}

/// The shipped board with a longer way beside each thread from an outer
/// space to its informant, through two new evidence spaces: 68 spaces,
/// listed so that the informants sit on both sides of space 64 and the
/// last new space after them.
fn board_of_68_spaces() -> String {
    let text = DataSet::embedded()
        .get("cards/board.ron")
        .expect("the shipped board")
        .to_vec();
    let mut board: BoardDef = ron::from_str(std::str::from_utf8(&text).unwrap()).unwrap();
    let colours = [Colour::Blue, Colour::Yellow, Colour::Green];
    let informant_threads: Vec<(String, String)> = board
        .threads
        .iter()
        .filter(|(a, b)| a.starts_with('o') && b.starts_with("informant_"))
        .cloned()
        .collect();
    let mut added = Vec::new();
    for (outer, informant) in informant_threads {
        let (a, b) = (
            format!("x{}", added.len() + 1),
            format!("x{}", added.len() + 2),
        );
        for id in [&a, &b] {
            let n = added.len();
            added.push(BoardSpaceDef {
                id: id.clone(),
                kind: SpaceKindDef::Evidence(colours[n % 3]),
                at: (10 + n as i8, 0),
            });
        }
        board
            .threads
            .extend([(outer, a.clone()), (a, b.clone()), (b, informant)]);
    }
    assert_eq!(
        added.len(),
        28,
        "two new spaces beside each of the 14 informant threads"
    );
    // The new spaces go just before the informants, the last one after them.
    let last = added.pop().unwrap();
    let first_informant = board
        .spaces
        .iter()
        .position(|s| matches!(s.kind, SpaceKindDef::Informant(_)))
        .unwrap();
    board.spaces.splice(first_informant..first_informant, added);
    board.spaces.push(last);
    ron::to_string(&board).unwrap()
}

#[test]
fn r8_3_on_a_board_of_more_than_64_spaces_the_set_walk_counts_as_the_rule() {
    // Boards of more than 64 spaces keep the walk over whole `SpaceSet`s
    // (the one-word walk needs every space in one word): the shipped
    // board does not reach it, so a larger board is built here.
    let mut ds = DataSet::embedded();
    ds.files
        .insert("cards/board.ron".into(), board_of_68_spaces().into_bytes());
    let r = data::load(&ds).unwrap_or_else(|d| panic!("the larger board loads: {d:?}"));
    assert_eq!(r.board.spaces.len(), 68);
    let informants: Vec<usize> = (0..r.board.spaces.len())
        .filter(|&i| matches!(r.board.spaces[i].kind, SpaceKind::Informant(_)))
        .collect();
    assert!(
        informants.iter().any(|&i| i < 64) && informants.iter().any(|&i| i >= 64),
        "informants at {informants:?}: on both sides of space 64"
    );
    let (decisions, with_one, _) = compare_walks(&r, 400);
    assert!(decisions > 10_000, "{decisions} decisions");
    assert!(
        with_one > 100,
        "{with_one} decisions with an informant connected"
    );
}
