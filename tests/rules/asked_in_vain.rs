//! R5.6: the Editor asks for a face-down token of a colour and there is
//! none. Everyone heard the answer, so from then on every token that lay
//! face down on the track is known to lack that colour, for as long as it
//! stays face down there. The state keeps that knowledge with each token
//! (`State::ruled_out`), a position saved and loaded keeps it, and a search
//! that deals the hidden tokens again from the Editor's view deals only
//! tokens that agree with it.

use std::collections::BTreeMap;
use watergate::formats::render::{self, Style};
use watergate::game::engine::{Event, TokenKind};
use watergate::game::model::*;
use watergate::game::rules::Rules;
use watergate::game::state::State;
use watergate::game::view::View;
use watergate::players::agent::{Agent, RandomAgent};

/// The face-down tokens on the track after `events`, each with what the
/// events told of it: the colours asked for in vain since it last came to
/// lie face down there. Worked out from the events alone, in their order,
/// starting from the tokens face down before them (`before`).
fn told(before: &BTreeMap<TokenId, Colours>, events: &[Event]) -> BTreeMap<TokenId, Colours> {
    let mut now = before.clone();
    for e in events {
        match *e {
            Event::AskedColour {
                colour,
                found: false,
            } => {
                for lacks in now.values_mut() {
                    lacks.0 |= colour.bit();
                }
            }
            Event::EvidenceDrawn {
                token,
                face_up: false,
                ..
            } => {
                now.insert(token, Colours::NONE);
            }
            Event::EvidenceDrawn { token, .. }
            | Event::Revealed { token }
            | Event::Flipped { token }
            | Event::ToBag { token }
            | Event::Gained {
                token: TokenKind::Evidence(token),
                ..
            }
            | Event::Pinned { token, .. } => {
                now.remove(&token);
            }
            _ => {}
        }
    }
    now
}

#[test]
fn a_vain_ask_tells_everyone_what_each_face_down_token_lacks_while_it_stays_face_down() {
    let r: Rules = watergate::data::shipped();
    let (mut vain_asks, mut dealt_again) = (0, 0);
    for seed in 0..400 {
        let mut s = State::new(&r, seed);
        let mut players = BySide::from_fn(|side| RandomAgent::new(seed ^ side as u64));
        // The round's first draws lie face down, nothing known of them.
        let mut known: BTreeMap<TokenId, Colours> = (s.track().iter())
            .filter(|t| s.on_track(**t).is_some_and(|(_, up)| !up))
            .map(|t| (*t, Colours::NONE))
            .collect();
        let mut options = Vec::new();
        while let Some(actor) = s.legal(&r, &mut options) {
            let side = actor.side().expect("no chance decisions in normal play");
            let choice = players[side].decide(&View::new(&r, &s, side), &options);
            let mut events = Vec::new();
            s.apply_observed(&r, choice, &mut events).unwrap();
            known = told(&known, &events);
            vain_asks += events
                .iter()
                .filter(|e| matches!(e, Event::AskedColour { found: false, .. }))
                .count();
            for (t, lacks) in &known {
                assert_eq!(s.ruled_out(*t), *lacks, "seed {seed}: token {}", t.0);
                assert!(
                    !r.token(*t).colours.intersects(*lacks),
                    "what is told is true"
                );
            }
            // Every token not face down on the track is known for no more
            // than its face shows.
            for i in 0..r.evidence.len() {
                let t = TokenId(i as u8);
                if !known.contains_key(&t) {
                    assert_eq!(s.ruled_out(t), Colours::NONE, "seed {seed}: token {i}");
                }
            }
            // The Editor's picture of the track says it: "face down, not blue".
            let lacking = known.values().filter(|c| !c.is_empty()).count();
            let drawn = render::track(&r, &s, &Style::plain(Some(Side::Editor)));
            assert_eq!(drawn.matches("face down, not ").count(), lacking, "{drawn}");
            // A position saved and loaded keeps it.
            if lacking > 0 {
                let again = State::from_setup(&r, s.to_setup()).unwrap();
                assert_eq!(again, s);
                // Dealt again from the Editor's view: each face-down slot
                // gets a token that lacks what its token was known to lack.
                let dealt = View::new(&r, &s, Side::Editor).determinize(seed);
                for (slot, t) in s.track().iter().enumerate() {
                    let Some(lacks) = known.get(t) else { continue };
                    let other = dealt.track()[slot];
                    assert!(!r.token(other).colours.intersects(*lacks), "seed {seed}");
                    assert_eq!(dealt.ruled_out(other), *lacks);
                    dealt_again += usize::from(other != *t && !lacks.is_empty());
                }
            }
        }
    }
    assert!(vain_asks > 100, "random games ask in vain: {vain_asks}");
    assert!(
        dealt_again > 100,
        "known slots dealt other tokens: {dealt_again}"
    );
}

/// R5.6: an ask that finds its colour waits for Nixon to turn up one of his
/// face-down tokens of it. The Editor knows one lies there, so a position
/// dealt again from her view (`View::determinize`, which OpenSpiel's
/// `resample_from_infostate` uses) has one too, and Nixon a token to turn
/// up (such deals often left him none: a game stuck with no option).
#[test]
fn an_ask_that_found_its_colour_is_dealt_again_with_a_token_of_it_face_down() {
    use watergate::game::engine::{Actor, DecisionKind};
    let r: Rules = watergate::data::shipped();
    let mut asks = 0;
    for seed in 0..400 {
        let mut s = State::new(&r, seed);
        let mut players = BySide::from_fn(|side| RandomAgent::new(seed ^ side as u64));
        let mut options = Vec::new();
        while let Some(actor) = s.legal(&r, &mut options) {
            if let Some(d) = s.decision(&r) {
                if let DecisionKind::Reveal { colour } = d.kind {
                    asks += 1;
                    for k in 0..8 {
                        let dealt = View::new(&r, &s, Side::Editor).determinize(seed * 8 + k);
                        let d = dealt.decision(&r).expect("the game goes on");
                        assert_eq!(d.actor, Actor::Player(Side::Nixon));
                        assert!(
                            !d.options.is_empty(),
                            "seed {seed}, deal {k}: no face-down {colour} token to turn up"
                        );
                    }
                }
            }
            let side = actor.side().expect("no chance decisions in normal play");
            let choice = players[side].decide(&View::new(&r, &s, side), &options);
            s.apply(&r, choice).unwrap();
        }
    }
    assert!(asks > 50, "random games ask and find: {asks}");
}
