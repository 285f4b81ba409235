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

/// The first two plies of `opening.ron` counted by hand from the rules, so
/// that the table above agrees with more than the engine that wrote it.
/// Seed 3 deals the Editor Recruit Dean (3 blue), The Saturday Night
/// Massacre (4 green), Mass demonstration (1 blue, reaction), Follow the
/// money! (1 blue/yellow, reaction) and Recruit Baldwin (2 blue/green).
/// Nixon holds no card that may answer any of her plays, so no reaction
/// window opens (R6), and the three evidence tokens lie face down on 0
/// (R4), so no face-up token can be moved by value.
#[test]
fn the_opening_s_first_two_plies_counted_by_hand() {
    use watergate::game::engine::notation::format_choice;
    let expected = [
        // R5.3, R5.6: a value play moves the initiative or the momentum
        // token, or asks Nixon for a face-down token of a colour printed
        // on the card: 2 + one ask a colour.
        ("editor.recruit_dean value", 3),
        ("editor.the_saturday_night_massacre value", 3),
        ("editor.mass_demonstration value", 3),
        ("editor.follow_the_money value", 4),
        ("editor.recruit_baldwin value", 4),
        // R5.11, R5.13: an informant whose picture is in the supply is
        // pinned, then the initiative or the momentum token moves.
        ("editor.recruit_dean action", 2),
        ("editor.recruit_baldwin action", 2),
        // Everything back on 0, then 1 evidence token 1 step: any of 3.
        ("editor.the_saturday_night_massacre action", 3),
        // R5.12: the reaction cards' actions are no option on a turn.
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let scn = Scenario::from_file(&dir.join("opening.ron")).unwrap();
    let r = scn.rules(&watergate::data::GameSource::shipped()).unwrap();
    let s = scn.start(&r).unwrap();
    let mut options = Vec::new();
    s.legal(&r, &mut options).expect("the Editor decides");
    let mut got: Vec<(String, usize)> = options
        .iter()
        .map(|c| {
            let mut next = s.clone();
            next.apply_unchecked(&r, *c).unwrap();
            let mut replies = Vec::new();
            next.legal(&r, &mut replies).expect("a decision follows");
            (format_choice(&r, &s, *c), replies.len())
        })
        .collect();
    got.sort();
    let mut want: Vec<(String, usize)> =
        expected.iter().map(|(c, n)| (c.to_string(), *n)).collect();
    want.sort();
    assert_eq!(got, want);
    // The table's depths 1 and 2.
    assert_eq!(perft(&r, &s, 1), 8);
    assert_eq!(
        perft(&r, &s, 2),
        expected.iter().map(|e| e.1 as u64).sum::<u64>()
    );
}
