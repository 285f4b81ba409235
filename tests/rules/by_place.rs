//! Playing on by place (`State::play_by_place`) is the game `apply_next`
//! plays with the option at that place: at every decision of random games,
//! on the shipped game and on variants, one decision taken each way from
//! the same position gives the same state, the same events and the same
//! next options; whole games played each way end the same.

use std::path::PathBuf;
use watergate::data::GameSource;
use watergate::game::engine::{Actor, Choice, Event, Quiet};
use watergate::game::model::BySide;
use watergate::game::rules::Rules;
use watergate::game::state::State;
use watergate::lab::driver::{play_out, OnChoice};
use watergate::players::agent::RandomAgent;

/// The shipped game and every variant of `scenarios/variants/`.
fn games() -> Vec<(String, Rules)> {
    let mut out = vec![("shipped".to_string(), watergate::data::shipped())];
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/variants");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the variants folder")
        .map(|e| e.expect("a variant").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    for path in files {
        let source = GameSource {
            data: None,
            variant: Some(path.clone()),
        };
        // A board file or a script beside the variants is no variant.
        if let Ok(r) = source.rules() {
            out.push((path.display().to_string(), r));
        }
    }
    out
}

/// At every decision of `games` random games of `r`: the option at a
/// random place, taken by `apply_next` and by `play_by_place` with a limit
/// of one decision, leads to the same state, events and options.
fn one_decision_each_way(name: &str, r: &Rules, games: u64) {
    let mut places = RandomAgent::new(7);
    let mut buf = Vec::new();
    for seed in 0..games {
        let mut s = State::new(r, seed);
        let mut options = Vec::new();
        let mut next = s.legal(r, &mut options);
        let mut decisions = 0;
        while let Some(actor) = next {
            let k = places.pick(options.len());
            let mut generic = s.clone();
            let mut generic_events: Vec<Event> = Vec::new();
            let mut generic_options = Vec::new();
            let generic_next = generic
                .apply_next_observed(r, options[k], &mut generic_options, &mut generic_events)
                .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}"));

            let mut by_place = s.clone();
            let mut events: Vec<Event> = Vec::new();
            let mut asked = 0;
            let mut pick = |a: Actor, n: usize| {
                assert_eq!((a, n), (actor, options.len()), "{name}, seed {seed}");
                asked += 1;
                k
            };
            let taken = by_place
                .play_by_place(r, 1, &mut pick, &mut buf, &mut events)
                .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}"));
            assert_eq!((taken, asked), (1, 1), "{name}, seed {seed}");
            assert_eq!(
                events, generic_events,
                "{name}, seed {seed}, decision {decisions}: {:?}",
                options[k]
            );
            assert!(
                by_place == generic,
                "{name}, seed {seed}, decision {decisions}: {:?} leads elsewhere by place\n{:?}\n{:?}",
                options[k],
                by_place.stack(),
                generic.stack()
            );
            let mut by_place_options = Vec::new();
            assert_eq!(by_place.legal(r, &mut by_place_options), generic_next);
            assert_eq!(by_place_options, generic_options, "{name}, seed {seed}");
            s = generic;
            options = generic_options;
            next = generic_next;
            decisions += 1;
        }
        assert!(s.is_over(), "{name}, seed {seed}");
    }
}

#[test]
fn a_decision_by_place_is_the_decision_applied() {
    let games = games();
    assert!(games.len() > 5, "the variants load");
    for (name, r) in games {
        one_decision_each_way(&name, &r, if name == "shipped" { 300 } else { 40 });
    }
}

/// Whole games of two random players: through the driver's generic loop
/// (its observer watches each choice) and by place (its observer hears
/// only events) they end the same, with the same events and count.
#[test]
fn a_random_game_by_place_is_the_same_game() {
    for (name, r) in games() {
        for seed in 0..if name == "shipped" { 300 } else { 40 } {
            let mut generic = State::new(&r, seed);
            let mut agents = (RandomAgent::new(seed), RandomAgent::new(!seed));
            let mut choices = Vec::new();
            let played = play_out(
                &r,
                &mut generic,
                BySide::new(&mut agents.0, &mut agents.1),
                None,
                &mut OnChoice(|_: &State, _: Actor, c: Choice| choices.push(c)),
            )
            .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e:?}"));
            assert_eq!(played.decisions as usize, choices.len());

            let mut by_place = State::new(&r, seed);
            let mut agents = BySide::new(RandomAgent::new(seed), RandomAgent::new(!seed));
            let mut pick = |a: Actor, n: usize| match a {
                Actor::Player(side) => agents[side].pick(n),
                Actor::Chance => panic!("{name}, seed {seed}: a chance decision"),
            };
            let taken = by_place
                .play_by_place(&r, u64::MAX, &mut pick, &mut Vec::new(), &mut Quiet)
                .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}"));
            assert_eq!(taken, played.decisions, "{name}, seed {seed}");
            assert!(by_place == generic, "{name}, seed {seed}");
        }
    }
}
