//! Entry points for fuzzing: each takes arbitrary bytes and must return,
//! never panic and never hang. The cargo-fuzz targets in `fuzz/` call them;
//! `tests/rules/fuzz_corpus.rs` runs them over the checked-in corpus on every CI
//! run (stable Rust), so what the fuzzer once found stays fixed.

use crate::data::{self, DataSet};
use crate::formats::scenario::Scenario;
use crate::game::engine::{Choice, PlayError, TokenRef};
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::State;
use std::sync::OnceLock;

fn shipped() -> &'static Rules {
    static R: OnceLock<Rules> = OnceLock::new();
    R.get_or_init(data::shipped)
}

/// The card/board/bag loader: the first byte picks a data file, the rest
/// replaces its contents.
pub fn load_data(bytes: &[u8]) {
    let Some((&pick, rest)) = bytes.split_first() else {
        return;
    };
    let mut ds = DataSet::embedded();
    let keys: Vec<String> = ds.files.keys().cloned().collect();
    let key = &keys[pick as usize % keys.len()];
    ds.files.insert(key.clone(), rest.to_vec());
    if let Err(d) = data::load(&ds) {
        // Every problem names a place.
        for p in d.iter() {
            assert!(
                !p.path.is_empty() && p.line >= 1 && !p.message.is_empty(),
                "{p:?}"
            );
        }
    }
}

/// The variant loader over the shipped data.
pub fn load_variant(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Ok(v) = crate::data::variant::Variant::from_text("fuzz.ron", text, std::env::temp_dir())
    {
        let _ = v.rules(&DataSet::embedded());
    }
}

/// The scenario loader: parse, build the position, play the listed
/// choices, check the expectations.
pub fn load_scenario(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(scn) = Scenario::from_text("fuzz.ron", text, std::env::temp_dir()) else {
        return;
    };
    if scn.has_own_rules() {
        return;
    }
    let r = shipped();
    if let Ok(mut s) = scn.start(r) {
        crate::game::invariants::conservation(r, &s).expect("a loaded position is consistent");
        let _ = scn.play_and_check(r, &mut s);
    }
}

/// A choice built from two bytes: usually one of the legal options, often
/// something arbitrary (which must be refused with the state unchanged).
fn choice_from(s: &State, r: &Rules, a: u8, b: u8) -> Choice {
    let mut options = Vec::new();
    s.legal(r, &mut options);
    if a < 170 && !options.is_empty() {
        return options[b as usize % options.len()];
    }
    match a % 11 {
        0 => Choice::Play {
            card: CardId(b % 48),
            part: if b & 1 == 0 {
                Part::Value
            } else {
                Part::Action
            },
        },
        1 => Choice::Token(match b % 3 {
            0 => TokenRef::Initiative,
            1 => TokenRef::Momentum,
            _ => TokenRef::Evidence(b / 3),
        }),
        2 => Choice::Ask(Colour::ALL[b as usize % 3]),
        3 => Choice::Space(SpaceId(b)),
        4 => Choice::Picture(PictureId(b % 10)),
        5 => Choice::Card(CardId(b % 48)),
        6 => Choice::React(CardId(b % 48)),
        7 => Choice::Pass,
        8 => Choice::Branch(b),
        9 => Choice::Skip,
        _ => Choice::Chance(b),
    }
}

/// The engine driven by an arbitrary sequence of choices, legal and
/// illegal, from a game seeded by the first bytes.
pub fn play_choices(bytes: &[u8]) {
    if bytes.len() < 2 {
        return;
    }
    let r = shipped();
    let seed = u16::from_le_bytes([bytes[0], bytes[1]]) as u64;
    let mut s = State::new(r, seed);
    for pair in bytes[2..].chunks(2) {
        if s.is_over() {
            break;
        }
        let (a, b) = (pair[0], *pair.get(1).unwrap_or(&0));
        let c = choice_from(&s, r, a, b);
        let legal = s.is_legal(r, c);
        let before = s.clone();
        match s.apply(r, c) {
            Ok(()) => assert!(legal, "an illegal choice {c:?} was accepted"),
            Err(PlayError::Illegal(reason)) => {
                assert!(!legal && !reason.is_empty());
                assert_eq!(s, before, "a refused choice changed the game");
            }
            Err(e) => panic!("{c:?} failed: {e}"),
        }
        crate::game::invariants::conservation(r, &s).expect("nothing created or lost");
    }
}
