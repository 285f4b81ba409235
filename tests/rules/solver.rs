//! The solver (crates/players/src/solve.rs) on positions where chance matters: every
//! outcome of a random event is an answer the side must survive.

use std::path::Path;
use watergate::formats::scenario::Scenario;
use watergate::game::engine::Actor;
use watergate::players::solve::{solve, SolveConfig, Verdict};

/// The rules a fixture plays with (its own edits included).
fn rules_of(scn: &Scenario) -> watergate::game::rules::Rules {
    scn.rules(&watergate::data::GameSource::shipped())
        .unwrap_or_else(|d| panic!("{d}"))
}

fn fixture(name: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/solver")
        .join(name);
    Scenario::from_file(&path).unwrap_or_else(|d| panic!("{d}"))
}

/// R4.1, Q3: a reshuffle inside the horizon is a chance node. With
/// two cards in the discard pile, one winning and one not, Nixon cannot
/// force the win, whatever the generator says (the generator would have
/// picked one order and the solver would have trusted it).
#[test]
fn a_reshuffle_is_chance_not_the_generator() {
    let scn = fixture("reshuffle_in_horizon.ron");
    let r = rules_of(&scn);
    let base = scn.start(&r).unwrap_or_else(|d| panic!("{d}"));
    for seed in 0..6u64 {
        let s = {
            use rand::SeedableRng;
            let mut setup = base.to_setup();
            setup.rng = watergate::game::state::GameRng::seed_from_u64(seed);
            watergate::game::state::State::from_setup(&r, setup)
                .expect("only the generator changed")
        };
        let result = solve(
            &r,
            &s,
            &SolveConfig {
                side: watergate::game::model::Side::Nixon,
                max_plies: None,
                counts: watergate::players::solve::DepthCounts::Every,
                node_limit: 5_000_000,
            },
        );
        assert_eq!(result.verdict, Verdict::Cannot, "seed {seed}: {result:?}");
        // The best defence goes through chance picking John Mitchell.
        assert!(
            result
                .line
                .iter()
                .any(|(who, c)| who == "chance" && c == "top nixon.john_mitchell"),
            "seed {seed}: {:?}",
            result.line
        );
    }
}

/// With Chuck Colson alone in the discard pile the reshuffle has one
/// outcome, and Howard Hunt's line wins.
#[test]
fn a_reshuffle_with_one_outcome_wins() {
    let scn = fixture("reshuffle_in_horizon.ron");
    let r = rules_of(&scn);
    let s = scn.start(&r).unwrap_or_else(|d| panic!("{d}"));
    let mitchell = r.card_by_id("nixon.john_mitchell").expect("a card");
    let mut setup = s.to_setup();
    setup.discards[watergate::game::model::Side::Nixon].retain(|c| *c != mitchell);
    setup.removed.push(mitchell);
    let s = watergate::game::state::State::from_setup(&r, setup)
        .expect("the card moved from the pile to the removed");
    let result = solve(
        &r,
        &s,
        &SolveConfig {
            side: watergate::game::model::Side::Nixon,
            max_plies: None,
            counts: watergate::players::solve::DepthCounts::Every,
            node_limit: 5_000_000,
        },
    );
    assert_eq!(result.verdict, Verdict::Wins, "{result:?}");
}

/// The reshuffle as the engine asks it with explicit chance: one outcome
/// per card of the discard pile, named `top <card>`; the chosen card is
/// drawn and played at once.
#[test]
fn explicit_chance_asks_which_card_comes_on_top() {
    let scn = fixture("reshuffle_in_horizon.ron");
    let r = rules_of(&scn);
    let mut s = scn.start(&r).unwrap_or_else(|d| panic!("{d}"));
    s.set_explicit_chance(true);
    let mut options = Vec::new();
    s.legal(&r, &mut options);
    let hunt =
        watergate::game::engine::notation::parse_choice(&r, &s, "howard_hunt action", &options)
            .expect("Howard Hunt's action is an option");
    s.apply(&r, hunt).expect("legal");
    assert_eq!(s.legal(&r, &mut options), Some(Actor::Chance));
    let names: Vec<String> = options
        .iter()
        .map(|c| watergate::game::engine::notation::outcome_name(&r, &s, *c))
        .collect();
    assert_eq!(names, ["top nixon.chuck_colson", "top nixon.john_mitchell"]);
    let top =
        watergate::game::engine::notation::parse_choice(&r, &s, "top john_mitchell", &options)
            .expect("named by its short id too");
    s.apply(&r, top).expect("legal");
    assert_eq!(
        s.legal(&r, &mut options),
        Some(Actor::Player(watergate::game::model::Side::Nixon))
    );
    let colson = r.card_by_id("nixon.chuck_colson").expect("a card");
    assert_eq!(
        s.deck(watergate::game::model::Side::Nixon).to_vec(),
        vec![colson],
        "Colson stays in the deck"
    );
}

/// Issue 37: a depth can count only the side's own decisions, as a chess
/// puzzle's "mate in 3" counts only the solver's moves. In this mined
/// position Nixon wins within 3 of his own decisions, but not within 2 of
/// his own nor within 4 decisions of both sides and chance; the winning
/// line has more than 4 decisions, at most 3 of them Nixon's.
#[test]
fn a_depth_of_own_decisions_leaves_the_opponents_and_chances_free() {
    use watergate::game::model::Side;
    use watergate::players::solve::DepthCounts;
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/puzzles/mined/s1_g0000_d098_nixon.ron");
    let scn = Scenario::from_file(&path).unwrap_or_else(|d| panic!("{d}"));
    let r = rules_of(&scn);
    let s = scn.start(&r).unwrap_or_else(|d| panic!("{d}"));
    let within = |depth, counts| {
        solve(
            &r,
            &s,
            &SolveConfig {
                side: Side::Nixon,
                max_plies: Some(depth),
                counts,
                node_limit: 5_000_000,
            },
        )
    };
    let own = within(3, DepthCounts::Own);
    assert_eq!(own.verdict, Verdict::Wins);
    assert_eq!(within(2, DepthCounts::Own).verdict, Verdict::Cannot);
    assert_eq!(within(4, DepthCounts::Every).verdict, Verdict::Cannot);
    let nixons = own.line.iter().filter(|(who, _)| who == "Nixon").count();
    assert!(own.line.len() > 4 && nixons <= 3, "{:?}", own.line);
}
