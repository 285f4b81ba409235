//! Thousands of random games with every invariant checked after every step:
//! nothing created or lost (36 evidence tokens, 9 momentum tokens, 7
//! pictures, 40 player cards each in exactly one place), illegal choices
//! refused with the state unchanged, same seed and choices giving the same
//! game, and states surviving a serialization round trip.

use std::ops::ControlFlow;
use watergate::game::engine::{Actor, Choice, Event, Observer, PlayError, TokenRef};
use watergate::game::model::*;
use watergate::game::rules::Rules;
use watergate::game::setup::Setup;
use watergate::game::state::State;
use watergate::game::view::View;
use watergate::lab::driver::{play_out, Steps};
use watergate::players::agent::RandomAgent;

/// The events of a game, and a check run before every decision.
struct Watch<F> {
    events: Vec<Event>,
    each: F,
}

impl<F> Observer for Watch<F> {
    fn event(&mut self, e: Event) {
        self.events.push(e);
    }
}

impl<F: FnMut(&State, &[Choice])> Steps for Watch<F> {
    type Error = std::convert::Infallible;
    fn before(
        &mut self,
        s: &State,
        _: Actor,
        options: &[Choice],
    ) -> Result<ControlFlow<()>, Self::Error> {
        (self.each)(s, options);
        Ok(ControlFlow::Continue(()))
    }
}

fn play(r: &Rules, seed: u64, each: impl FnMut(&State, &[Choice])) -> (State, Vec<Event>) {
    let mut watch = Watch {
        events: Vec::new(),
        each,
    };
    let mut s = State::new_observed(r, seed, &mut watch);
    let (mut e, mut n) = (RandomAgent::new(seed ^ 0xE), RandomAgent::new(seed ^ 0x17));
    if let Err(err) = play_out(r, &mut s, BySide::new(&mut e, &mut n), None, &mut watch) {
        panic!("seed {seed}: a random game fails (no chance decisions in normal play; a legal choice applies): {err:?}");
    }
    (s, watch.events)
}

#[test]
fn nothing_is_created_or_lost_in_3000_random_games() {
    let r = watergate::data::shipped();
    for seed in 0..3000 {
        let mut steps = 0;
        let (s, _) = play(&r, seed, |s, options| {
            if let Err(e) = watergate::game::invariants::conservation(&r, s) {
                panic!("seed {seed}, step {steps}: {e}");
            }
            assert!(
                options.len() >= 2,
                "seed {seed}: a decision with {} option(s)",
                options.len()
            );
            steps += 1;
        });
        watergate::game::invariants::conservation(&r, &s).unwrap();
        assert!(s.outcome().is_some());
        assert!(steps > 10, "seed {seed}: only {steps} decisions");
    }
}

/// R5.1: on a turn, every card in hand can be played for its value, and
/// for its action exactly where `State::action_usable` allows it (R5.11,
/// R5.12): the turn's option list, which reads a card's requirement from
/// kept bits, agrees with the rule asked card by card, forbidden actions
/// and requirements met or not included.
#[test]
fn a_turns_options_are_each_card_for_its_value_and_its_usable_action() {
    turns_options_agree_with_the_rule(&watergate::data::shipped(), 400);
}

/// R5.11, the same in a game with a requirement the turn's kept bits do
/// not hold (`All([])`, which the engine asks the card about): the shipped
/// game has none, and a turn looks for them only in a game that has some.
#[test]
fn a_turns_options_agree_with_the_rule_where_a_requirement_must_be_asked() {
    use std::path::Path;
    use watergate::data::variant::Variant;
    use watergate::data::DataSet;
    let v = Variant::from_file(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/variants/brilliant_mood_any_turn.ron"),
    )
    .unwrap();
    turns_options_agree_with_the_rule(&v.rules(&DataSet::embedded()).unwrap(), 200);
}

fn turns_options_agree_with_the_rule(r: &Rules, seeds: u64) {
    use watergate::game::state::PlayedAs;
    let (mut turns, mut actions, mut refused) = (0, 0, 0);
    for seed in 0..seeds {
        play(r, seed, |s, options| {
            if !s.stack().is_empty() || s.outcome().is_some() {
                return;
            }
            let side = s.turn();
            let mut expected = Vec::new();
            for &card in s.hand(side) {
                expected.push(Choice::Play {
                    card,
                    part: Part::Value,
                });
                if s.action_usable(r, side, card, PlayedAs::Turn) {
                    expected.push(Choice::Play {
                        card,
                        part: Part::Action,
                    });
                    actions += 1;
                } else {
                    refused += 1;
                }
            }
            assert_eq!(options, expected.as_slice(), "seed {seed}");
            turns += 1;
        });
    }
    assert!(
        turns > 25 * seeds && actions > 0 && refused > 0,
        "{turns} {actions} {refused}"
    );
}

#[test]
fn same_seed_and_choices_give_the_same_game() {
    let r = watergate::data::shipped();
    for seed in [1, 42, 4242] {
        let (a, ea) = play(&r, seed, |_, _| {});
        let (b, eb) = play(&r, seed, |_, _| {});
        assert_eq!(a, b);
        assert_eq!(ea, eb);
    }
    let (a, _) = play(&r, 1, |_, _| {});
    let (b, _) = play(&r, 2, |_, _| {});
    assert_ne!(a, b, "different seeds should give different games");
}

/// Choices of every shape, most of them illegal at any given moment.
fn probes(r: &Rules) -> Vec<Choice> {
    let mut v = vec![
        Choice::Pass,
        Choice::Skip,
        Choice::Token(TokenRef::Initiative),
        Choice::Token(TokenRef::Momentum),
        Choice::Token(TokenRef::Evidence(0)),
        Choice::Token(TokenRef::Evidence(200)),
        Choice::Ask(Colour::Green),
        Choice::Space(SpaceId(0)),
        Choice::Space(SpaceId(250)),
        Choice::Picture(PictureId(3)),
        Choice::Branch(9),
        Choice::Chance(0),
    ];
    for c in (0..r.cards.len()).step_by(7) {
        let card = CardId(c as u8);
        v.push(Choice::Play {
            card,
            part: Part::Action,
        });
        v.push(Choice::Play {
            card,
            part: Part::Value,
        });
        v.push(Choice::React(card));
        v.push(Choice::Card(card));
    }
    v.push(Choice::Play {
        card: CardId(240),
        part: Part::Value,
    });
    v
}

#[test]
fn illegal_choices_are_refused_and_change_nothing() {
    let r = watergate::data::shipped();
    let probes = probes(&r);
    let mut refused = 0;
    for seed in 0..200 {
        play(&r, seed, |s, options| {
            for p in &probes {
                if options.contains(p) {
                    continue;
                }
                let mut copy = s.clone();
                match copy.apply(&r, *p) {
                    Err(PlayError::Illegal(reason)) => {
                        assert!(!reason.is_empty());
                        refused += 1;
                    }
                    other => panic!("seed {seed}: {p:?} gave {other:?}"),
                }
                assert_eq!(&copy, s, "a refused choice changed the state");
            }
        });
    }
    assert!(refused > 10_000);
}

#[test]
fn a_finished_game_refuses_every_choice() {
    let r = watergate::data::shipped();
    let (mut s, _) = play(&r, 5, |_, _| {});
    let before = s.clone();
    assert_eq!(s.apply(&r, Choice::Pass), Err(PlayError::GameOver));
    assert_eq!(s, before);
}

/// A position written out as its `Setup` and read back through
/// `State::from_setup` (the one checked way in) is the same game.
#[test]
fn states_survive_a_serialization_round_trip() {
    let r = watergate::data::shipped();
    for seed in 0..50 {
        play(&r, seed, |s, _| {
            let json = serde_json::to_string(&s.to_setup()).unwrap();
            let setup: Setup = serde_json::from_str(&json).unwrap();
            let back = State::from_setup(&r, setup).unwrap();
            assert_eq!(&back, s);
        });
    }
}

#[test]
fn views_hide_what_the_viewer_may_not_see() {
    let r = watergate::data::shipped();
    play(&r, 9, |s, _| {
        let editor = View::new(&r, s, Side::Editor);
        let nixon = View::new(&r, s, Side::Nixon);
        for (e, n) in editor.track().iter().zip(nixon.track()) {
            assert_eq!(e.face_up, n.face_up);
            // R4.3: Nixon sees face-down colours on the track, the Editor does not.
            assert_eq!(e.colours.is_some(), e.face_up);
            assert!(n.colours.is_some());
        }
        assert_eq!(editor.my_hand(), s.hand(Side::Editor));
        assert_eq!(nixon.my_hand(), s.hand(Side::Nixon));
    });
}

#[test]
fn any_position_saved_to_a_scenario_file_loads_back_as_an_equal_game() {
    use watergate::formats::scenario::{save, Scenario};
    let r = watergate::data::shipped();
    let mut checked = 0;
    for seed in 0..120 {
        let mut step = 0;
        play(&r, seed, |s, _| {
            step += 1;
            if step % 7 != 0 {
                return;
            }
            let text = save::to_text(&save::scenario_of(&r, s, "round trip", ""));
            let scn = Scenario::from_text("saved.ron", &text, ".".into())
                .unwrap_or_else(|d| panic!("{d}\n{text}"));
            let back = scn.start(&r).unwrap_or_else(|d| panic!("{d}\n{text}"));
            assert_eq!(&back, s, "seed {seed} step {step}\n{text}");
            checked += 1;
        });
    }
    assert!(checked > 1000);
}

#[test]
fn a_short_soak_finds_nothing() {
    let r = watergate::data::shipped();
    let rep = watergate::lab::soak::soak(
        &r,
        &watergate::lab::soak::SoakConfig {
            games: 40,
            seed: 77,
            threads: 2,
            save_every: 1,
        },
        &|_| {},
    )
    .expect("the threads start");
    assert_eq!(rep.failure, None);
    assert_eq!(rep.games, 40);
    assert_eq!(rep.replays, 40);
    assert_eq!(rep.round_trips, rep.steps);
    assert!(rep.illegal_refused > rep.steps);
}

/// A search deals the hidden cards and tokens again from one side's view
/// (`View::determinize`): every state so dealt keeps every invariant, the
/// engine's kept sets and masks of the track and the board included, at
/// every decision of 300 random games, from both chairs.
#[test]
fn a_position_dealt_again_from_either_view_keeps_every_invariant() {
    let r = watergate::data::shipped();
    for seed in 0..300 {
        let mut steps = 0u64;
        play(&r, seed, |s, _| {
            for side in [Side::Editor, Side::Nixon] {
                let dealt = View::new(&r, s, side).determinize(seed ^ steps);
                if let Err(e) = watergate::game::invariants::conservation(&r, &dealt) {
                    panic!("seed {seed}, step {steps}, dealt from {side:?}'s view: {e}");
                }
            }
            steps += 1;
        });
    }
}
