//! A golden record of 1,000 seeded games: for each, the winner, the cause
//! (R8.1–R8.3), the round it ended in, the number of decisions taken, and a
//! digest of the choices made. Refactors of the engine must leave every
//! line identical: the same seed gives the same game. After a deliberate
//! change to the rules or the shipped data, `BLESS=1` rewrites the file
//! (read the diff).

use crate::common;

use std::fmt::Write as _;
use std::path::Path;
use watergate::game::model::BySide;
use watergate::game::rules::Rules;
use watergate::game::state::State;
use watergate::game::view::View;
use watergate::lab::driver::{play_out, OnChoice};
use watergate::lab::sim::game_seed;
use watergate::players::agent::{Agent, HeuristicAgent, RandomAgent};

/// Games between two random agents, then a few with the heuristic agent.
const RANDOM_GAMES: u64 = 970;
const HEURISTIC_GAMES: u64 = 30;
const RUN_SEED: u64 = 13;

/// FNV-1a over the text of each choice, so the record also pins which
/// choices were made, not only how the game ended.
fn fnv(h: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *h ^= *b as u64;
        *h = h.wrapping_mul(0x0100_0000_01b3);
    }
}

fn line(r: &Rules, index: u64, agents: &mut [Box<dyn Agent>; 2], kind: &str) -> String {
    let seed = game_seed(RUN_SEED, index);
    let mut s = State::new(r, seed);
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let [editor, nixon] = agents;
    let played = play_out(
        r,
        &mut s,
        BySide::new(editor.as_mut(), nixon.as_mut()),
        None,
        &mut OnChoice(|_: &State, _, choice| fnv(&mut digest, format!("{choice:?};").as_bytes())),
    )
    .unwrap_or_else(|e| panic!("game {index} (seed {seed}): {e:?}"));
    let steps = played.decisions;
    let o = s.outcome().expect("a finished game has an outcome");
    format!(
        "{index:4} {kind:9} seed={seed:016x} winner={} cause={} round={} steps={steps} choices={digest:016x}",
        o.winner.key(),
        o.cause.key(),
        s.round()
    )
}

#[test]
fn a_thousand_seeded_games_end_as_recorded() {
    let r = watergate::data::shipped();
    let mut got = String::new();
    for index in 0..RANDOM_GAMES + HEURISTIC_GAMES {
        let seed = game_seed(RUN_SEED, index);
        let (a, b) = (game_seed(seed, 1), game_seed(seed, 2));
        let (mut agents, kind): ([Box<dyn Agent>; 2], _) = if index < RANDOM_GAMES {
            (
                [Box::new(RandomAgent::new(a)), Box::new(RandomAgent::new(b))],
                "random",
            )
        } else if index % 2 == 0 {
            (
                [
                    Box::new(HeuristicAgent::new(a)),
                    Box::new(RandomAgent::new(b)),
                ],
                "heuristic",
            )
        } else {
            (
                [
                    Box::new(RandomAgent::new(a)),
                    Box::new(HeuristicAgent::new(b)),
                ],
                "heuristic",
            )
        };
        writeln!(got, "{}", line(&r, index, &mut agents, kind)).unwrap();
    }
    let expected = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/games_1000.txt");
    if let Some(diff) = common::golden("games_1000", &expected, &got) {
        panic!("{diff}");
    }
}

/// Applying a choice returns the next decision: the same actor and options
/// that `legal` lists afterwards, at every step of 200 games.
#[test]
fn applying_a_choice_returns_the_decision_legal_lists() {
    let r = watergate::data::shipped();
    for index in 0..200 {
        let seed = game_seed(RUN_SEED, index);
        let mut s = State::new(&r, seed);
        let mut agents = [RandomAgent::new(seed), RandomAgent::new(seed ^ 1)];
        let (mut options, mut listed) = (Vec::new(), Vec::new());
        let mut next = s.legal(&r, &mut options);
        while let Some(actor) = next {
            let side = actor.side().expect("no chance decisions in normal play");
            let choice = agents[side.index()].decide(&View::new(&r, &s, side), &options);
            next = s
                .apply_next(&r, choice, &mut options)
                .expect("a legal choice applies");
            assert_eq!(next, s.legal(&r, &mut listed), "game {index}");
            assert_eq!(options, listed, "game {index}");
        }
        assert!(s.outcome().is_some() && options.is_empty());
    }
}

/// A script that reads the game runs at every play of its card, with the
/// context built once at load (`Rules::script_context`). Running every
/// shipped script that way must give the same games as the programs
/// computed at load: the first 100 recorded games, line for line.
#[test]
fn scripts_run_at_every_play_give_the_recorded_games() {
    let mut r = watergate::data::shipped();
    r.force_dynamic_scripts();
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/games_1000.txt"),
    )
    .expect("the golden record");
    for (index, want) in (0..100).zip(expected.lines()) {
        let seed = game_seed(RUN_SEED, index);
        let (a, b) = (game_seed(seed, 1), game_seed(seed, 2));
        let mut agents: [Box<dyn Agent>; 2] =
            [Box::new(RandomAgent::new(a)), Box::new(RandomAgent::new(b))];
        assert_eq!(line(&r, index, &mut agents, "random"), want, "game {index}");
    }
}
