//! Explicit deals (`State::new_explicit`): every random event of a game is a
//! decision of chance, card draws included, so a game is a function of its
//! choices alone (the OpenSpiel game of python/ is built on this).

use watergate::game::engine::{Actor, ChanceOf, Choice, DecisionKind};
use watergate::game::model::Side;
use watergate::game::rules::Rules;
use watergate::game::state::State;

fn shipped() -> Rules {
    watergate::data::shipped()
}

/// A small generator of our own, so the test's choices do not depend on
/// the engine's.
fn pick(seed: &mut u64, n: usize) -> usize {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*seed >> 33) as usize) % n
}

/// R4.1: the initiative holder is dealt 5 cards and the other player 4, one
/// chance decision per card, each among the cards left in that deck.
#[test]
fn r4_1_each_card_dealt_is_chance_among_the_deck() {
    let r = shipped();
    let mut s = State::new_explicit(&r);
    let holder = s.initiative();
    let mut options = Vec::new();
    for (side, count) in [(holder, 5), (holder.other(), 4)] {
        for k in 0..count {
            assert_eq!(s.legal(&r, &mut options), Some(Actor::Chance));
            assert_eq!(
                s.decision_kind(&r),
                DecisionKind::Chance {
                    what: ChanceOf::CardDrawn,
                    weights: vec![]
                }
            );
            assert_eq!(options.len(), 20 - k, "one outcome per card in the deck");
            let last = *options.last().expect("options");
            let Choice::Chance(i) = last else {
                panic!("{last:?}")
            };
            let card = s.deck(side)[i as usize];
            let name = watergate::game::engine::notation::outcome_name(&r, &s, last);
            assert_eq!(name, format!("deal {}", r.card(card).id));
            s.apply(&r, last).expect("legal");
            assert!(
                s.hand(side).contains(&card),
                "the card chance picked is dealt"
            );
        }
    }
    // Then R4.2: the evidence draws, chance's as before.
    assert_eq!(s.legal(&r, &mut options), Some(Actor::Chance));
    assert!(matches!(
        s.decision_kind(&r),
        DecisionKind::Chance {
            what: ChanceOf::EvidenceDrawn,
            ..
        }
    ));
    assert_eq!(s.hand(holder).len(), 5);
    assert_eq!(s.hand(holder.other()).len(), 4);
}

/// Whole games with every random event explicit: the same choices give the
/// same game, the generator is never consulted after the setup, and every
/// game ends (R9) with decks reshuffled along the way (R4.1).
#[test]
fn explicit_games_are_functions_of_their_choices() {
    let r = shipped();
    let mut options = Vec::new();
    let mut reshuffled_games = 0;
    for game in 0..40u64 {
        let mut seed = game + 1;
        let mut s = State::new_explicit(&r);
        let rng_at_start = format!("{:?}", s.rng());
        let mut choices = Vec::new();
        let mut reshuffled = false;
        while let Some(_actor) = s.legal(&r, &mut options) {
            let c = options[pick(&mut seed, options.len())];
            choices.push(c);
            let discards_before = s.discards(Side::Editor).len() + s.discards(Side::Nixon).len();
            s.apply(&r, c).expect("a legal option is taken");
            watergate::game::invariants::conservation(&r, &s)
                .unwrap_or_else(|e| panic!("game {game}: {e}"));
            let discards_after = s.discards(Side::Editor).len() + s.discards(Side::Nixon).len();
            reshuffled |= discards_after + 1 < discards_before;
            assert!(choices.len() < 5_000, "game {game} does not end");
        }
        reshuffled_games += reshuffled as usize;
        assert!(s.outcome().is_some());
        assert_eq!(format!("{:?}", s.rng()), rng_at_start, "game {game}");
        let mut again = State::new_explicit(&r);
        for c in &choices {
            again
                .apply(&r, *c)
                .expect("the same choices are legal again");
        }
        assert_eq!(again, s, "game {game} replays to the same position");
    }
    assert!(reshuffled_games > 0, "some game reshuffles a deck");
}
