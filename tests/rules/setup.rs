//! A position as data (`Setup`): `State::from_setup` builds a game only
//! from a position where everything is in exactly one place (R1: 36
//! evidence tokens, 9 momentum tokens, 7 pictures, 40 player cards), and
//! reports every problem with the field it is in; `State::to_setup` gives
//! back the position exactly, mid-action included.

use rand::{Rng, SeedableRng};
use watergate::game::model::*;
use watergate::game::rules::Rules;
use watergate::game::setup::{BoardToken, Setup, SetupError, TrackToken};
use watergate::game::state::{Frame, GameRng, PicLoc, State};

/// A playable table: every card shuffled into its owner's deck, every bag
/// token in the bag, the momentum token on 0.
fn table(r: &Rules) -> Setup {
    let mut s = Setup::empty(r, GameRng::seed_from_u64(7));
    for side in Side::BOTH {
        let mut deck: Vec<CardId> = r.cards_of(side).collect();
        s.shuffle(&mut deck);
        s.decks[side] = deck;
    }
    s.bag = (0..r.evidence.len())
        .filter(|i| r.evidence[*i].in_bag)
        .map(|i| TokenId(i as u8))
        .collect();
    s.momentum_token = Some(0);
    s.momentum_supply -= 1;
    s
}

fn problems(r: &Rules, s: Setup) -> Vec<SetupError> {
    match State::from_setup(r, s) {
        Ok(_) => panic!("the setup was accepted"),
        Err(e) => e,
    }
}

fn fields(errors: &[SetupError]) -> Vec<&str> {
    errors.iter().map(|e| e.field.as_str()).collect()
}

/// A position from outside (a Python pickle) names its generator's state:
/// an even one is refused, since 0 gave the same number forever and the
/// next uniform draw never ended.
#[test]
fn a_generator_state_that_is_even_is_refused() {
    let r = watergate::data::shipped();
    let mut s = table(&r);
    s.rng = ron::from_str("(state: 0)").unwrap();
    assert_eq!(fields(&problems(&r, s.clone())), ["rng"]);
    s.rng = ron::from_str("(state: 4096)").unwrap();
    assert_eq!(fields(&problems(&r, s.clone())), ["rng"]);
    s.rng = ron::from_str("(state: 4097)").unwrap();
    assert!(State::from_setup(&r, s).is_ok());
}

/// R8.4: a game is over exactly when it has a winner. A finished game's
/// position loads back; one over with no winner (its options could never
/// be taken), or with a winner and still going, is refused.
#[test]
fn over_and_won_go_together() {
    let r = watergate::data::shipped();
    let mut s = State::new(&r, 5);
    let mut pick = rand_pcg::Pcg64Mcg::seed_from_u64(5);
    let mut options = Vec::new();
    while s.legal(&r, &mut options).is_some() {
        let c = options[pick.next_u64() as usize % options.len()];
        s.apply(&r, c).unwrap();
    }
    let ended = s.to_setup();
    assert_eq!(State::from_setup(&r, ended.clone()).unwrap(), s);
    let mut no_winner = ended.clone();
    no_winner.outcome = None;
    assert_eq!(fields(&problems(&r, no_winner)), ["phase"]);
    let mut still_going = table(&r);
    still_going.outcome = ended.outcome;
    assert_eq!(fields(&problems(&r, still_going)), ["outcome"]);
}

#[test]
fn a_full_table_is_a_game_that_plays() {
    let r = watergate::data::shipped();
    let mut s = State::from_setup(&r, table(&r)).expect("a full table is valid");
    s.settle(&r).unwrap();
    assert!(s.decision(&r).is_some(), "someone has a decision to take");
}

#[test]
fn every_position_of_200_random_games_survives_the_round_trip() {
    let r = watergate::data::shipped();
    let mut frames = [0usize; 3];
    for seed in 0..200 {
        let mut s = State::new(&r, seed);
        let mut pick = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut options = Vec::new();
        while s.legal(&r, &mut options).is_some() {
            let back = State::from_setup(&r, s.to_setup())
                .unwrap_or_else(|e| panic!("seed {seed}: a played position is refused: {e:?}"));
            assert_eq!(back, s, "seed {seed}: the round trip changes the game");
            for f in s.to_setup().stack {
                match f {
                    Frame::Play(_) => frames[0] += 1,
                    Frame::Run(_) => frames[1] += 1,
                    Frame::Pin { .. } => frames[2] += 1,
                    _ => {}
                }
            }
            let choice = options[pick.next_u64() as usize % options.len()];
            s.apply_unchecked(&r, choice).unwrap();
        }
    }
    assert!(
        frames.iter().all(|n| *n > 0),
        "the games reach plays, running actions and pins: {frames:?}"
    );
}

#[test]
fn a_card_in_two_places_names_both() {
    let r = watergate::data::shipped();
    let mut s = table(&r);
    let c = s.decks[Side::Nixon][0];
    s.discards[Side::Nixon].push(c);
    let e = problems(&r, s);
    assert_eq!(fields(&e), ["discards.nixon[0]"]);
    assert!(e[0].message.contains("also at decks.nixon[0]"), "{e:?}");
}

#[test]
fn a_card_nowhere_is_refused() {
    let r = watergate::data::shipped();
    let mut s = table(&r);
    let c = s.decks[Side::Editor].pop().unwrap();
    let e = problems(&r, s);
    assert_eq!(fields(&e), ["cards"]);
    assert!(e[0].message.contains(&r.card(c).id), "{e:?}");
}

#[test]
fn a_card_in_the_other_sides_hand_is_refused() {
    let r = watergate::data::shipped();
    let mut s = table(&r);
    let c = s.decks[Side::Nixon].pop().unwrap();
    s.hands[Side::Editor].push(c);
    assert_eq!(fields(&problems(&r, s)), ["hands.editor[0]"]);
}

#[test]
fn an_evidence_token_in_two_places_is_refused() {
    let r = watergate::data::shipped();
    let mut s = table(&r);
    let t = s.bag[3];
    s.track.push(TrackToken {
        token: t,
        pos: 2,
        face_up: false,
        ruled_out: Colours::NONE,
    });
    let e = problems(&r, s);
    assert_eq!(fields(&e), ["bag[3]"]);
    assert!(e[0].message.contains("also at track[0]"), "{e:?}");
}

#[test]
fn every_momentum_token_is_accounted_for() {
    let r = watergate::data::shipped();
    let mut s = table(&r);
    s.momentum_removed += 1; // R1: nine in all; now ten
    assert_eq!(fields(&problems(&r, s)), ["momentum_supply"]);
    let mut s = table(&r);
    s.momentum_cards[Side::Editor] = 200;
    s.momentum_supply = 0;
    let e = problems(&r, s);
    assert!(fields(&e).contains(&"momentum_cards.editor"), "{e:?}");
}

#[test]
fn a_pin_must_match_its_slip_and_a_space_holds_one_token() {
    // R7.6: a token is pinned only on a slip of one of its colours.
    let r = watergate::data::shipped();
    let space = SpaceId(
        r.board
            .spaces
            .iter()
            .position(|sp| matches!(sp.kind, watergate::game::rules::SpaceKind::Evidence(_)))
            .unwrap() as u8,
    );
    let slip = r.board.slip(space).unwrap();
    let mut s = table(&r);
    let fits = |t: &TokenId| r.token(*t).colours.contains(slip);
    let wrong = *s.bag.iter().find(|t| !fits(t)).unwrap();
    s.bag.retain(|t| *t != wrong);
    s.board.push(BoardToken {
        space,
        token: wrong,
        face_up: true,
    });
    assert_eq!(fields(&problems(&r, s)), ["board[0].token"]);

    let mut s = table(&r);
    let right: Vec<TokenId> = s.bag.iter().copied().filter(fits).take(2).collect();
    s.bag.retain(|t| !right.contains(t));
    for token in right {
        s.board.push(BoardToken {
            space,
            token,
            face_up: true,
        });
    }
    assert_eq!(fields(&problems(&r, s)), ["board[1].space"]);
}

/// R5.6: what a vain ask told is true of the token and kept only face
/// down; a setup that says otherwise is refused field by field.
#[test]
fn a_track_token_said_to_lack_a_colour_it_shows_or_has_is_refused() {
    let r = watergate::data::shipped();
    let mut s = table(&r);
    let t = s.bag.pop().unwrap();
    let lacked = Colours(!r.token(t).colours.0 & Colours::ALL.0);
    let has = r.token(t).colours;
    let on_track = |face_up, ruled_out| TrackToken {
        token: t,
        pos: 1,
        face_up,
        ruled_out,
    };
    let ok = on_track(false, lacked);
    let said_wrongly = on_track(false, has);
    let face_up = on_track(true, lacked);
    for (token, refused) in [(ok, false), (said_wrongly, true), (face_up, true)] {
        let mut s = s.clone();
        s.track.push(token);
        let e = match State::from_setup(&r, s) {
            Ok(state) => {
                assert_eq!(state.ruled_out(t), token.ruled_out);
                vec![]
            }
            Err(e) => e,
        };
        assert_eq!(fields(&e).len(), usize::from(refused), "{token:?}: {e:?}");
        if refused {
            assert_eq!(fields(&e), ["track[0].ruled_out"], "{token:?}");
        }
    }
}

#[test]
fn indices_out_of_range_are_reported_not_panicked_on() {
    let r = watergate::data::shipped();
    let mut s = table(&r);
    s.track.push(TrackToken {
        token: TokenId(250),
        pos: 9,
        face_up: false,
        ruled_out: Colours::NONE,
    });
    s.board.push(BoardToken {
        space: SpaceId(250),
        token: TokenId(251),
        face_up: false,
    });
    s.removed.push(CardId(250));
    s.pictures.push(PicLoc::Supply);
    s.stack.push(Frame::Pin {
        token: TokenId(252),
        pinner: Side::Editor,
    });
    s.round = 0;
    let e = problems(&r, s);
    assert_eq!(
        fields(&e),
        [
            "round",
            "track[0]",
            "track[0].pos",
            "board[0]",
            "board[0].space",
            "pictures",
            "removed[0]",
            "stack[0].token",
        ],
        "{e:?}"
    );
}

#[test]
fn a_frame_must_point_at_a_play_below_it() {
    let r = watergate::data::shipped();
    let mut s = State::new(&r, 3);
    // Play on until a card action runs above its play.
    let mut options = Vec::new();
    let mut pick = rand_pcg::Pcg64Mcg::seed_from_u64(3);
    let mut setup = loop {
        let setup = s.to_setup();
        if setup
            .stack
            .iter()
            .any(|f| matches!(f, Frame::Run(run) if run.play.is_some()))
        {
            break setup;
        }
        s.legal(&r, &mut options)
            .expect("a running action before the end");
        let choice = options[pick.next_u64() as usize % options.len()];
        s.apply_unchecked(&r, choice).unwrap();
    };
    let k = setup
        .stack
        .iter()
        .position(|f| matches!(f, Frame::Run(_)))
        .unwrap();
    if let Frame::Run(run) = &mut setup.stack[k] {
        run.play = Some(k as u8);
    }
    assert_eq!(
        fields(&problems(&r, setup)),
        [format!("stack[{k}].play").as_str()]
    );
}

/// A saved position is the scenario format, per-side values included:
/// written `PerSide(editor: …, nixon: …)` as files always were, read back
/// to the same game.
#[test]
fn a_saved_position_keeps_the_file_format_and_loads_back_equal() {
    use watergate::formats::scenario::{save, Scenario};
    let r = watergate::data::shipped();
    let mut s = State::new(&r, 11);
    let mut options = Vec::new();
    let mut pick = rand_pcg::Pcg64Mcg::seed_from_u64(11);
    for _ in 0..40 {
        s.legal(&r, &mut options).expect("the game goes on");
        let choice = options[pick.next_u64() as usize % options.len()];
        s.apply_unchecked(&r, choice).unwrap();
    }
    let text = save::to_text(&save::scenario_of(&r, &s, "saved", ""));
    assert!(text.contains("hands: PerSide("), "{text}");
    let scn = Scenario::from_text("saved.ron", &text, ".".into()).unwrap();
    let back = scn.start(&r).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(back, s);
}

/// R2.1: "Each player shuffles their 20 player cards". The test below
/// checks the setup against `shuffle` itself; this one checks that a deck
/// is a fair shuffle, independently of how it is made: over 4,000 seeds
/// each deck holds exactly its side's cards, and each card lies on top of
/// its deck, and at its bottom, about as often as every other (a shuffle
/// that did nothing, left a card in place or drew one place short would
/// fail).
#[test]
fn each_deck_is_its_sides_cards_in_a_fair_order() {
    let r = watergate::data::shipped();
    const SEEDS: u64 = 4000;
    for side in Side::BOTH {
        let cards: Vec<CardId> = r.cards_of(side).collect();
        let n = cards.len();
        let mut top = vec![0u32; n];
        let mut bottom = vec![0u32; n];
        let mut unchanged = 0;
        for seed in 0..SEEDS {
            let deck = State::setup(&r, seed).to_setup().decks[side].clone();
            let mut sorted = deck.clone();
            sorted.sort_by_key(|c| c.index());
            assert_eq!(sorted, cards, "seed {seed}: the {side} deck is its cards");
            unchanged += u32::from(deck == cards);
            let at = |c: CardId| cards.iter().position(|x| *x == c).unwrap();
            top[at(deck[0])] += 1;
            bottom[at(deck[n - 1])] += 1;
        }
        assert_eq!(unchanged, 0, "the {side} deck left in the rules' order");
        // Each count is binomial (4,000 draws at 1/20): mean 200, standard
        // deviation about 13.8; 140 and 260 are more than four away.
        for (place, counts) in [("top", &top), ("bottom", &bottom)] {
            for (i, &k) in counts.iter().enumerate() {
                assert!(
                    (140..=260).contains(&k),
                    "{} on the {side} deck's {place} {k} times in {SEEDS} games (about {} expected)",
                    r.card(cards[i]).name,
                    SEEDS as usize / n
                );
            }
        }
    }
}

/// R2.1, R2.5: a new game is each side's cards shuffled into a deck (the
/// Editor's first) and the bag's tokens shuffled after them, all by the
/// game's seed; every other token waits in the reserve and every picture
/// in the supply. (The lists come laid out from the rules, computed once
/// at load; this checks them against the rules themselves.)
#[test]
fn a_new_game_is_each_sides_cards_and_the_bag_shuffled_by_its_seed() {
    let r = watergate::data::shipped();
    for seed in 0..20 {
        let s = State::setup(&r, seed).to_setup();
        let mut rng = GameRng::seed_from_u64(seed);
        for side in Side::BOTH {
            let mut deck: Vec<CardId> = r.cards_of(side).collect();
            watergate::game::state::shuffle(&mut rng, &mut deck);
            assert_eq!(s.decks[side], deck, "seed {seed}: the {side} deck");
        }
        let mut bag: Vec<TokenId> = (0..r.evidence.len())
            .filter(|i| r.evidence[*i].in_bag)
            .map(|i| TokenId(i as u8))
            .collect();
        watergate::game::state::shuffle(&mut rng, &mut bag);
        assert_eq!(s.bag, bag, "seed {seed}: the bag");
        assert_eq!(s.rng, rng, "seed {seed}: the generator after the shuffles");
        assert!(s.track.is_empty() && s.board.is_empty());
        assert_eq!(s.pictures, vec![PicLoc::Supply; r.pictures.len()]);
        assert!(Side::BOTH.iter().all(|side| s.hands[*side].is_empty()));
    }
}
