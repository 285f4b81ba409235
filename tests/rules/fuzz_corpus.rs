//! The fuzz corpus, replayed by the ordinary test suite: every input under
//! `fuzz/corpus/<target>/` must be handled without a panic. Plus a few
//! thousand deterministic random inputs per target, as a short fuzz run on
//! stable Rust. (Coverage-guided fuzzing: see fuzz/README.md.)

use rand::{Rng, SeedableRng};
use std::path::Path;

fn corpus(target: &str, f: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let bytes = std::fs::read(&p).unwrap();
        let r = std::panic::catch_unwind(|| f(&bytes));
        assert!(r.is_ok(), "{} panics on {}", target, p.display());
        n += 1;
    }
    n
}

/// Random mutations of the corpus inputs (bytes flipped, cut, repeated).
fn mutated(target: &str, f: fn(&[u8]), rounds: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let seeds: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(42);
    for i in 0..rounds {
        let mut b = seeds[i % seeds.len()].clone();
        for _ in 0..1 + (rng.next_u32() % 4) {
            if b.is_empty() {
                b.push(rng.next_u32() as u8);
                continue;
            }
            let at = (rng.next_u32() as usize) % b.len();
            match rng.next_u32() % 4 {
                0 => b[at] = rng.next_u32() as u8,
                1 => b.truncate(at),
                2 => b.insert(at, rng.next_u32() as u8),
                _ => {
                    let tail = b[at..].to_vec();
                    b.extend(tail);
                }
            }
        }
        let r = std::panic::catch_unwind(|| f(&b));
        assert!(r.is_ok(), "{target} panics on mutated input {i}: {b:?}");
    }
}

#[test]
fn load_data_corpus() {
    assert!(corpus("load_data", watergate::lab::fuzz::load_data) > 10);
    mutated("load_data", watergate::lab::fuzz::load_data, 300);
}

#[test]
fn load_scenario_corpus() {
    assert!(corpus("load_scenario", watergate::lab::fuzz::load_scenario) > 10);
    mutated("load_scenario", watergate::lab::fuzz::load_scenario, 1500);
}

#[test]
fn load_variant_corpus() {
    assert!(corpus("load_variant", watergate::lab::fuzz::load_variant) >= 3);
    mutated("load_variant", watergate::lab::fuzz::load_variant, 300);
}

#[test]
fn play_choices_corpus() {
    assert!(corpus("play_choices", watergate::lab::fuzz::play_choices) > 10);
    mutated("play_choices", watergate::lab::fuzz::play_choices, 1500);
}
