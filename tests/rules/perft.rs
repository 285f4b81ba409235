//! Perft-style counts of legal decision sequences from fixed positions,
//! kept in `tests/perft/counts.ron` (shakmaty's perft, for a card game).

use serde::{Deserialize, Serialize};
use std::path::Path;
use watergate::formats::scenario::Scenario;
use watergate::game::rules::Rules;
use watergate::game::state::State;

#[derive(Serialize, Deserialize)]
struct Entry {
    position: String,
    counts: Vec<u64>,
}

fn perft(r: &Rules, s: &State, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut options = Vec::new();
    if s.legal(r, &mut options).is_none() {
        return 1;
    }
    options
        .iter()
        .map(|c| {
            let mut next = s.clone();
            next.apply_unchecked(r, *c).expect("legal options apply");
            perft(r, &next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_counts_match() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let text = std::fs::read_to_string(dir.join("counts.ron")).unwrap();
    let mut entries: Vec<Entry> = ron::from_str(&text).unwrap();
    let bless = std::env::var_os("BLESS").is_some();
    let depth = 5;
    for e in &mut entries {
        let scn = Scenario::from_file(&dir.join(&e.position)).unwrap();
        // The position's own data (its `variant:`), else the shipped data.
        let r = scn.rules(&watergate::data::GameSource::shipped()).unwrap();
        let s = scn.start(&r).unwrap();
        let got: Vec<u64> = (0..=depth).map(|d| perft(&r, &s, d)).collect();
        if bless {
            e.counts = got;
        } else {
            assert_eq!(got, e.counts, "perft of {}", e.position);
        }
    }
    if bless {
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect();
        let body = ron::ser::to_string_pretty(&entries, ron::ser::PrettyConfig::default()).unwrap();
        std::fs::write(dir.join("counts.ron"), format!("{header}{body}\n")).unwrap();
    }
}
