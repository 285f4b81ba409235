//! Checking a scenario's expectations against the state its choices led to.
//! Each failed expectation is a diagnostic at that expectation's position,
//! saying what was expected and what was found.

use super::format::*;
use super::load::{find_card, Problems};
use crate::engine::notation::{format_choice, kind_name, parse_choice, parse_kind, pos_name};
use crate::engine::Actor;
use crate::model::*;
use crate::rules::Rules;
use crate::state::*;

fn norm_kind(text: &str) -> String {
    match parse_kind(text) {
        Some((c, sym, _)) => kind_name(c, sym),
        None => text.trim().to_string(),
    }
}

fn norm_pos(text: &str) -> String {
    match crate::engine::notation::parse_pos(text) {
        Some(p) => pos_name(p),
        None => text.trim().to_string(),
    }
}

fn compare<T: PartialEq + std::fmt::Debug>(
    pr: &mut Problems,
    path: &str,
    want: &Option<T>,
    got: T,
) {
    if let Some(w) = want {
        if *w != got {
            pr.at(path, format!("{path}: expected {w:?}, got {got:?}"));
        }
    }
}

fn compare_sets(pr: &mut Problems, path: &str, mut want: Vec<String>, mut got: Vec<String>) {
    want.sort();
    got.sort();
    if want != got {
        pr.at(
            path,
            format!(
                "{path}: expected [{}], got [{}]",
                want.join(", "),
                got.join(", ")
            ),
        );
    }
}

fn card_ids(r: &Rules, pr: &mut Problems, path: &str, names: &[String]) -> Vec<String> {
    names
        .iter()
        .enumerate()
        .filter_map(|(i, n)| match find_card(r, n) {
            Ok(c) => Some(r.card(c).id.clone()),
            Err(e) => {
                pr.at(&format!("{path}[{i}]"), e);
                None
            }
        })
        .collect()
}

fn place_words(p: CardPlace) -> String {
    let whose = |s: Side| {
        if s == Side::Editor {
            "the Editor's"
        } else {
            "Nixon's"
        }
    };
    match p {
        CardPlace::Hand(s) => format!("in {} hand", whose(s)),
        CardPlace::Deck(s) => format!("in {} deck", whose(s)),
        CardPlace::Discard(s) => format!("in {} discard pile", whose(s)),
        CardPlace::Removed => "removed from the game".into(),
        CardPlace::InPlay => "in play".into(),
        CardPlace::Nowhere => "nowhere".into(),
    }
}

fn place_name(p: CardPlace) -> String {
    match p {
        CardPlace::Hand(s) => format!("hand {}", s.key()),
        CardPlace::Deck(s) => format!("deck {}", s.key()),
        CardPlace::Discard(s) => format!("discard {}", s.key()),
        CardPlace::Removed => "removed".into(),
        CardPlace::InPlay => "in play".into(),
        CardPlace::Nowhere => "nowhere".into(),
    }
}

pub fn check(r: &Rules, s: &State, e: &ExpectDef, pr: &mut Problems) {
    if let Some(w) = e.winner {
        match s.outcome {
            Some(o) if o.winner == w => {}
            Some(o) => pr.at(
                "expect.winner",
                format!("expect.winner: expected {w}, got {}", o.winner),
            ),
            None => pr.at(
                "expect.winner",
                format!("expect.winner: expected {w}, but the game is not over"),
            ),
        }
    }
    if let Some(cause) = e.cause {
        match s.outcome {
            Some(o) if o.cause == cause => {}
            Some(o) => pr.at(
                "expect.cause",
                format!("expect.cause: expected {cause:?}, got {:?}", o.cause),
            ),
            None => pr.at("expect.cause", "expect.cause: the game is not over"),
        }
    }
    compare(pr, "expect.over", &e.over, s.outcome.is_some());
    compare(pr, "expect.round", &e.round, s.round);
    if let Some(ph) = &e.phase {
        let got = format!("{:?}", s.phase).to_lowercase();
        if ph.to_lowercase() != got {
            pr.at(
                "expect.phase",
                format!("expect.phase: expected {ph}, got {got}"),
            );
        }
    }
    compare(pr, "expect.initiative", &e.initiative, s.initiative);
    compare(pr, "expect.turn", &e.turn, s.turn);
    if let Some(w) = &e.initiative_token {
        let got = s
            .initiative_token
            .map(pos_name)
            .unwrap_or_else(|| "gained".into());
        let want = if w == "gained" {
            w.clone()
        } else {
            norm_pos(w)
        };
        if want != got {
            pr.at(
                "expect.initiative_token",
                format!("expect.initiative_token: expected {want}, got {got}"),
            );
        }
    }
    if let Some(w) = &e.momentum_token {
        let got = s
            .momentum_token
            .map(pos_name)
            .unwrap_or_else(|| "off".into());
        let want = if w == "off" { w.clone() } else { norm_pos(w) };
        if want != got {
            pr.at(
                "expect.momentum_token",
                format!("expect.momentum_token: expected {want}, got {got}"),
            );
        }
    }
    if let Some(m) = &e.momentum_cards {
        if (m.editor, m.nixon) != (s.momentum_cards[0], s.momentum_cards[1]) {
            pr.at(
                "expect.momentum_cards",
                format!(
                    "expect.momentum_cards: expected (editor: {}, nixon: {}), got (editor: {}, nixon: {})",
                    m.editor, m.nixon, s.momentum_cards[0], s.momentum_cards[1]
                ),
            );
        }
    }
    compare(
        pr,
        "expect.momentum_supply",
        &e.momentum_supply,
        s.momentum_supply,
    );
    compare(
        pr,
        "expect.momentum_removed",
        &e.momentum_removed,
        s.momentum_removed,
    );
    if let Some(track) = &e.track {
        let want = track
            .iter()
            .map(|t| {
                format!(
                    "{} at {}{}",
                    norm_kind(&t.token),
                    norm_pos(&t.at),
                    if t.face_up { " up" } else { " down" }
                )
            })
            .collect();
        let got = s
            .track
            .iter()
            .filter_map(|t| {
                let (pos, up) = s.on_track(*t)?;
                let k = r.token(*t);
                Some(format!(
                    "{} at {}{}",
                    kind_name(k.colours, k.momentum_symbol),
                    pos_name(pos),
                    if up { " up" } else { " down" }
                ))
            })
            .collect();
        compare_sets(pr, "expect.track", want, got);
    }
    if let Some(board) = &e.board {
        let want = board
            .iter()
            .map(|b| {
                format!(
                    "{} on {}{}",
                    norm_kind(&b.token),
                    b.space,
                    if b.face_up { " up" } else { " down" }
                )
            })
            .collect();
        let got = s
            .evidence
            .iter()
            .enumerate()
            .filter_map(|(i, l)| match l {
                EvLoc::Board { space, face_up } => {
                    let k = r.token(TokenId(i as u8));
                    Some(format!(
                        "{} on {}{}",
                        kind_name(k.colours, k.momentum_symbol),
                        r.board.spaces[space.index()].id,
                        if *face_up { " up" } else { " down" }
                    ))
                }
                _ => None,
            })
            .collect();
        compare_sets(pr, "expect.board", want, got);
    }
    if let Some(pics) = &e.pictures {
        let want = pics
            .iter()
            .map(|p| {
                format!(
                    "{}{}",
                    p.name.to_lowercase(),
                    if p.face_up { " up" } else { " down" }
                )
            })
            .collect();
        let got = s
            .pictures
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                PicLoc::Pinned { face_up } => Some(format!(
                    "{}{}",
                    r.pictures[i].name.to_lowercase(),
                    if *face_up { " up" } else { " down" }
                )),
                PicLoc::Supply => None,
            })
            .collect();
        compare_sets(pr, "expect.pictures", want, got);
    }
    let ids = |v: &[CardId]| v.iter().map(|c| r.card(*c).id.clone()).collect::<Vec<_>>();
    if let Some(h) = &e.hands {
        for side in Side::BOTH {
            let path = format!("expect.hands.{}", side.key());
            let want = card_ids(r, pr, &path, h.get(side));
            compare_sets(pr, &path, want, ids(&s.hands[side.index()]));
        }
    }
    if let Some(h) = &e.hand_sizes {
        for side in Side::BOTH {
            compare(
                pr,
                &format!("expect.hand_sizes.{}", side.key()),
                &Some(*h.get(side) as usize),
                s.hands[side.index()].len(),
            );
        }
    }
    if let Some(d) = &e.discards {
        for side in Side::BOTH {
            let path = format!("expect.discards.{}", side.key());
            let want = card_ids(r, pr, &path, d.get(side));
            compare_sets(pr, &path, want, ids(&s.discards[side.index()]));
        }
    }
    if let Some(rm) = &e.removed {
        let want = card_ids(r, pr, "expect.removed", rm);
        compare_sets(pr, "expect.removed", want, ids(&s.removed));
    }
    for (i, (name, place)) in e.cards.iter().enumerate() {
        let path = format!("expect.cards[{i}]");
        match find_card(r, name) {
            Err(err) => pr.at(&path, err),
            Ok(c) => {
                let at = s.card_place(c);
                let got = place_name(at);
                let want = place.trim().to_lowercase();
                if !(got == want || got.split(' ').next() == Some(want.as_str())) {
                    pr.at(
                        &path,
                        format!(
                            "{path}: expected `{}` in {want}, but it is {}",
                            r.card(c).id,
                            place_words(at)
                        ),
                    );
                }
            }
        }
    }
    compare(pr, "expect.bag_size", &e.bag_size, s.bag.len());
    let mut options = Vec::new();
    let actor = s.legal(r, &mut options);
    if let Some(w) = &e.to_move {
        let got = match actor {
            None => "none".to_string(),
            Some(Actor::Chance) => "chance".to_string(),
            Some(Actor::Player(p)) => p.key().to_string(),
        };
        if w.to_lowercase() != got {
            pr.at(
                "expect.to_move",
                format!("expect.to_move: expected {w}, got {got}"),
            );
        }
    }
    let listed = |options: &[crate::engine::Choice]| {
        options
            .iter()
            .map(|c| format_choice(r, s, *c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(want) = &e.options {
        let mut matched = Vec::new();
        for (i, w) in want.iter().enumerate() {
            match parse_choice(r, s, w, &options) {
                Ok(c) => matched.push(c),
                Err(_) => pr.at(
                    &format!("expect.options[{i}]"),
                    format!(
                        "expect.options: `{w}` is not an option; the options are: {}",
                        listed(&options)
                    ),
                ),
            }
        }
        matched.sort();
        matched.dedup();
        if matched.len() == want.len() && matched.len() != options.len() {
            pr.at(
                "expect.options",
                format!(
                    "expect.options: expected {} options, got {}: {}",
                    want.len(),
                    options.len(),
                    listed(&options)
                ),
            );
        }
    }
    for (i, w) in e.options_include.iter().enumerate() {
        if parse_choice(r, s, w, &options).is_err() {
            pr.at(
                &format!("expect.options_include[{i}]"),
                format!(
                    "expect.options_include: `{w}` is not an option; the options are: {}",
                    listed(&options)
                ),
            );
        }
    }
    for (i, w) in e.options_exclude.iter().enumerate() {
        if parse_choice(r, s, w, &options).is_ok() {
            pr.at(
                &format!("expect.options_exclude[{i}]"),
                format!("expect.options_exclude: `{w}` is an option"),
            );
        }
    }
    compare(
        pr,
        "expect.connected",
        &e.connected,
        crate::engine::connected_informants(r, s),
    );
    compare(pr, "expect.forbidden", &e.forbidden, s.forbidden.len());
}
