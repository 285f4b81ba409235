//! Checking a scenario's expectations against the state its choices led to.
//! Each failed expectation is a diagnostic at that expectation's position,
//! saying what was expected and what was found.

use super::events;
use super::format::*;
use super::load::{find_card, Problems};
use crate::game::engine::event::Event;
use crate::game::engine::notation::{format_choice, kind_name, parse_choice, parse_kind, pos_name};
use crate::game::engine::{Actor, Choice};
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::*;
use crate::game::view::View;

/// Expected board tokens as `KIND on SPACE up|down`, the words both the
/// state's and a view's board are compared in.
fn board_words(board: &[super::format::BoardTokenDef]) -> Vec<String> {
    board
        .iter()
        .map(|b| {
            format!(
                "{} on {}{}",
                norm_kind(&b.token),
                b.space,
                if b.face_up { " up" } else { " down" }
            )
        })
        .collect()
}

fn norm_kind(text: &str) -> String {
    match parse_kind(text) {
        Some((c, sym, _)) => kind_name(c, sym),
        None => text.trim().to_string(),
    }
}

fn norm_pos(text: &str) -> String {
    match crate::game::engine::notation::parse_pos(text) {
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

/// Where an expectation stands: `at` is its path in the source map
/// (`expect`, `steps[3][0]`), `name` how messages call it (`expect`, `steps[3]`).
#[derive(Clone, Copy)]
pub struct Here<'a> {
    pub at: &'a str,
    pub name: &'a str,
}

impl Here<'_> {
    /// The top-level `expect`.
    pub const EXPECT: Here<'static> = Here {
        at: "expect",
        name: "expect",
    };
}

/// Checks `e` against `s`; `events` are those since the previous expectation.
pub fn check(
    r: &Rules,
    s: &State,
    e: &ExpectDef,
    here: Here,
    events: &[crate::game::engine::event::Event],
    pr: &mut Problems,
) {
    // The checks below name their fields `expect.<field>`: said and
    // located where this expectation stands.
    let mut sub = Problems {
        display: pr.display,
        map: pr.map,
        diags: Default::default(),
        rename: Some((here.at.to_string(), here.name.to_string())),
    };
    check_state(r, s, e, &mut sub);
    check_more(r, s, e, events, &mut sub);
    for (i, v) in e.views.iter().enumerate() {
        check_view(r, s, v, &format!("expect.views[{i}]"), &mut sub);
    }
    pr.diags.0.extend(sub.diags.0);
}

/// The state-wide expectations, each in the part of the game it is about.
fn check_state(r: &Rules, s: &State, e: &ExpectDef, pr: &mut Problems) {
    check_outcome(s, e, pr);
    check_counters(s, e, pr);
    check_tokens(r, s, e, pr);
    check_cards(r, s, e, pr);
    check_decision(r, s, e, pr);
}

/// Who won, why, and whether the game is over.
fn check_outcome(s: &State, e: &ExpectDef, pr: &mut Problems) {
    if let Some(w) = e.winner {
        match s.outcome() {
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
        match s.outcome() {
            Some(o) if o.cause == cause => {}
            Some(o) => pr.at(
                "expect.cause",
                format!("expect.cause: expected {cause:?}, got {:?}", o.cause),
            ),
            None => pr.at("expect.cause", "expect.cause: the game is not over"),
        }
    }
    compare(pr, "expect.over", &e.over, s.outcome().is_some());
}

/// The round, phase, initiative, turn and the momentum and initiative tokens.
fn check_counters(s: &State, e: &ExpectDef, pr: &mut Problems) {
    compare(pr, "expect.round", &e.round, s.round());
    if let Some(ph) = &e.phase {
        let got = format!("{:?}", s.phase()).to_lowercase();
        if ph.to_lowercase() != got {
            pr.at(
                "expect.phase",
                format!("expect.phase: expected {ph}, got {got}"),
            );
        }
    }
    compare(pr, "expect.initiative", &e.initiative, s.initiative());
    compare(pr, "expect.turn", &e.turn, s.turn());
    if let Some(w) = &e.initiative_token {
        let got = s
            .initiative_token()
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
            .momentum_token()
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
        if (m.editor, m.nixon) != (s.momentum_cards().editor, s.momentum_cards().nixon) {
            pr.at(
                "expect.momentum_cards",
                format!(
                    "expect.momentum_cards: expected (editor: {}, nixon: {}), got (editor: {}, nixon: {})",
                    m.editor, m.nixon, s.momentum_cards().editor, s.momentum_cards().nixon
                ),
            );
        }
    }
    compare(
        pr,
        "expect.momentum_supply",
        &e.momentum_supply,
        s.momentum_supply(),
    );
    compare(
        pr,
        "expect.momentum_removed",
        &e.momentum_removed,
        s.momentum_removed(),
    );
}

/// How an expected or actual track token's R5.6 knowledge reads: ` not
/// blue, green`, or nothing when none.
fn lacking(colours: impl Iterator<Item = String>) -> String {
    let mut names: Vec<String> = colours.collect();
    names.sort();
    if names.is_empty() {
        String::new()
    } else {
        format!(" not {}", names.join(", "))
    }
}

/// The research track, the evidence board and the pictures.
fn check_tokens(r: &Rules, s: &State, e: &ExpectDef, pr: &mut Problems) {
    if let Some(track) = &e.track {
        let want = track
            .iter()
            .map(|t| {
                format!(
                    "{} at {}{}{}",
                    norm_kind(&t.token),
                    norm_pos(&t.at),
                    if t.face_up { " up" } else { " down" },
                    lacking(t.ruled_out.iter().map(|c| c.to_lowercase()))
                )
            })
            .collect();
        let got = s
            .track()
            .iter()
            .filter_map(|t| {
                let (pos, up) = s.on_track(*t)?;
                let k = r.token(*t);
                Some(format!(
                    "{} at {}{}{}",
                    kind_name(k.colours, k.momentum_symbol),
                    pos_name(pos),
                    if up { " up" } else { " down" },
                    lacking(s.ruled_out(*t).iter().map(|c| c.name().to_string()))
                ))
            })
            .collect();
        compare_sets(pr, "expect.track", want, got);
    }
    if let Some(board) = &e.board {
        let want = board_words(board);
        let got = s
            .evidence()
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
            .pictures()
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
}

/// Hands, discard piles, removed cards and single cards' places.
fn check_cards(r: &Rules, s: &State, e: &ExpectDef, pr: &mut Problems) {
    let ids = |v: &[CardId]| v.iter().map(|c| r.card(*c).id.clone()).collect::<Vec<_>>();
    if let Some(h) = &e.hands {
        for side in Side::BOTH {
            let path = format!("expect.hands.{}", side.key());
            let want = card_ids(r, pr, &path, h.get(side));
            compare_sets(pr, &path, want, ids(s.hand(side)));
        }
    }
    if let Some(h) = &e.hand_sizes {
        for side in Side::BOTH {
            compare(
                pr,
                &format!("expect.hand_sizes.{}", side.key()),
                &Some(*h.get(side) as usize),
                s.hand(side).len(),
            );
        }
    }
    if let Some(d) = &e.discards {
        for side in Side::BOTH {
            let path = format!("expect.discards.{}", side.key());
            let want = card_ids(r, pr, &path, d.get(side));
            compare_sets(pr, &path, want, ids(s.discards(side)));
        }
    }
    if let Some(rm) = &e.removed {
        let want = card_ids(r, pr, "expect.removed", rm);
        compare_sets(pr, "expect.removed", want, ids(s.removed()));
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
}

/// The bag, who moves and with which options, connections and restrictions.
fn check_decision(r: &Rules, s: &State, e: &ExpectDef, pr: &mut Problems) {
    compare(pr, "expect.bag_size", &e.bag_size, s.bag().len());
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
    check_options(
        r,
        s,
        &options,
        OptionsWant {
            exact: &e.options,
            include: &e.options_include,
            exclude: &e.options_exclude,
        },
        "expect",
        pr,
    );
    compare(
        pr,
        "expect.connected",
        &e.connected,
        crate::game::engine::connected_informants(r, s),
    );
    compare(pr, "expect.forbidden", &e.forbidden, s.forbidden().len());
}

fn token_kind(r: &Rules, t: TokenId) -> String {
    let k = r.token(t);
    kind_name(k.colours, k.momentum_symbol)
}

/// Kinds written in a file, normalised; a kind that does not parse is
/// reported at its entry.
fn kinds(pr: &mut Problems, path: &str, written: &[String]) -> Vec<String> {
    written
        .iter()
        .enumerate()
        .filter_map(|(i, w)| match parse_kind(w) {
            Some((c, sym, None)) => Some(kind_name(c, sym)),
            _ => {
                pr.at(
                    &format!("{path}[{i}]"),
                    format!("{path}: `{w}` is not a token kind: expected `blue`, `blue/yellow`, `green*`…"),
                );
                None
            }
        })
        .collect()
}

/// The expectations beyond the position's own fields: turns played, the
/// bag and the reserve by kind, the decks' tops, and events.
fn check_more(r: &Rules, s: &State, e: &ExpectDef, events: &[Event], pr: &mut Problems) {
    if let Some(t) = &e.turns_played {
        for side in Side::BOTH {
            compare(
                pr,
                &format!("expect.turns_played.{}", side.key()),
                &Some(*t.get(side)),
                s.turns_played()[side],
            );
        }
    }
    if let Some(bag) = &e.bag {
        let want = kinds(pr, "expect.bag", bag);
        let got = s.bag().iter().map(|t| token_kind(r, *t)).collect();
        compare_sets(pr, "expect.bag", want, got);
    }
    if let Some(reserve) = &e.reserve {
        let want = kinds(pr, "expect.reserve", reserve);
        let got = s
            .evidence()
            .iter()
            .enumerate()
            .filter(|(_, l)| **l == EvLoc::Reserve)
            .map(|(i, _)| token_kind(r, TokenId(i as u8)))
            .collect();
        compare_sets(pr, "expect.reserve", want, got);
    }
    if let Some(tops) = &e.deck_tops {
        for side in Side::BOTH {
            let path = format!("expect.deck_tops.{}", side.key());
            let want = card_ids(r, pr, &path, tops.get(side));
            // Decks are kept with the top card last.
            let got: Vec<String> = s
                .deck(side)
                .iter()
                .rev()
                .take(want.len())
                .map(|c| r.card(*c).id.clone())
                .collect();
            if want != got {
                pr.at(
                    &path,
                    format!(
                        "{path}: expected [{}] on top (top first), got [{}]",
                        want.join(", "),
                        got.join(", ")
                    ),
                );
            }
        }
    }
    if let Some(d) = &e.deck_sizes {
        for side in Side::BOTH {
            compare(
                pr,
                &format!("expect.deck_sizes.{}", side.key()),
                &Some(*d.get(side) as usize),
                s.deck(side).len(),
            );
        }
    }
    let got: Vec<String> = events.iter().map(|ev| events::notation(r, ev)).collect();
    let got_norm: Vec<String> = got.iter().map(|g| events::normalise(r, g)).collect();
    let shown = || {
        if got.is_empty() {
            "none".to_string()
        } else {
            got.join("; ")
        }
    };
    if let Some(want) = &e.events {
        let want_norm: Vec<String> = want.iter().map(|w| events::normalise(r, w)).collect();
        if want_norm != got_norm {
            pr.at(
                "expect.events",
                format!(
                    "expect.events: expected [{}], got [{}]",
                    want.join("; "),
                    shown()
                ),
            );
        }
    }
    for (i, w) in e.events_include.iter().enumerate() {
        if !got_norm.contains(&events::normalise(r, w)) {
            pr.at(
                &format!("expect.events_include[{i}]"),
                format!(
                    "expect.events_include: no event `{w}`; the events were: {}",
                    shown()
                ),
            );
        }
    }
    for (i, w) in e.events_exclude.iter().enumerate() {
        if got_norm.contains(&events::normalise(r, w)) {
            pr.at(
                &format!("expect.events_exclude[{i}]"),
                format!("expect.events_exclude: `{w}` happened"),
            );
        }
    }
}

/// What one side sees, checked on its `View` (never on the state).
fn check_view(r: &Rules, s: &State, v: &ViewExpectDef, path: &str, pr: &mut Problems) {
    let view = View::new(r, s, v.side);
    let ids = |v: &[CardId]| v.iter().map(|c| r.card(*c).id.clone()).collect::<Vec<_>>();
    if let Some(h) = &v.hand {
        let p = format!("{path}.hand");
        let want = card_ids(r, pr, &p, h);
        compare_sets(pr, &p, want, ids(view.my_hand()));
    }
    let shown_track = |t: &crate::game::view::TrackToken| {
        let kind = match (t.colours, t.momentum_symbol) {
            (Some(c), Some(sym)) => kind_name(c, sym),
            _ => "?".to_string(),
        };
        format!(
            "{kind} at {}{}",
            pos_name(t.pos),
            if t.face_up { " up" } else { " down" }
        )
    };
    let track = view.track();
    if let Some(want) = &v.track {
        let want = want
            .iter()
            .map(|t| {
                let kind = if t.token.trim() == "?" {
                    "?".to_string()
                } else {
                    norm_kind(&t.token)
                };
                format!(
                    "{kind} at {}{}",
                    norm_pos(&t.at),
                    if t.face_up { " up" } else { " down" }
                )
            })
            .collect();
        let got = track.iter().map(shown_track).collect();
        compare_sets(pr, &format!("{path}.track"), want, got);
    }
    for (list, want_hidden, field) in [(&v.hidden, true, "hidden"), (&v.shown, false, "shown")] {
        for (i, at) in list.iter().enumerate() {
            let p = format!("{path}.{field}[{i}]");
            let Some(pos) = crate::game::engine::notation::parse_pos(at) else {
                pr.at(
                    &p,
                    format!("{p}: `{at}` is not a track position: expected `0`, `E2`, `N3`…"),
                );
                continue;
            };
            let here: Vec<_> = track.iter().filter(|t| t.pos == pos).collect();
            if here.is_empty() {
                pr.at(&p, format!("{p}: no evidence token on {}", pos_name(pos)));
            }
            for t in here {
                let hidden = t.colours.is_none();
                if hidden != want_hidden {
                    pr.at(
                        &p,
                        format!(
                            "{p}: {}'s view of {} shows {}",
                            v.side,
                            pos_name(pos),
                            if hidden {
                                "no kind (hidden)".to_string()
                            } else {
                                format!("its kind: {}", shown_track(t))
                            }
                        ),
                    );
                }
            }
        }
    }
    if let Some(board) = &v.board {
        let want = board_words(board);
        let got = view
            .board()
            .iter()
            .map(|b| {
                format!(
                    "{} on {}{}",
                    kind_name(b.colours, b.momentum_symbol),
                    r.board.spaces[b.space.index()].id,
                    if b.face_up { " up" } else { " down" }
                )
            })
            .collect();
        compare_sets(pr, &format!("{path}.board"), want, got);
    }
    for side in Side::BOTH {
        if let Some(h) = &v.hand_sizes {
            compare(
                pr,
                &format!("{path}.hand_sizes.{}", side.key()),
                &Some(*h.get(side) as usize),
                view.hand_size(side),
            );
        }
        if let Some(d) = &v.deck_sizes {
            compare(
                pr,
                &format!("{path}.deck_sizes.{}", side.key()),
                &Some(*d.get(side) as usize),
                view.deck_size(side),
            );
        }
        if let Some(d) = &v.discards {
            let p = format!("{path}.discards.{}", side.key());
            let want = card_ids(r, pr, &p, d.get(side));
            compare_sets(pr, &p, want, ids(view.discard(side)));
        }
    }
    compare(
        pr,
        &format!("{path}.bag_size"),
        &v.bag_size,
        view.bag_size(),
    );
    if let Some(rm) = &v.removed {
        let p = format!("{path}.removed");
        let want = card_ids(r, pr, &p, rm);
        compare_sets(pr, &p, want, ids(view.removed()));
    }
    let mut options = Vec::new();
    view.legal(&mut options);
    check_options(
        r,
        s,
        &options,
        OptionsWant {
            exact: &v.options,
            include: &v.options_include,
            exclude: &v.options_exclude,
        },
        path,
        pr,
    );
}

/// Expected options: exactly these, at least these, none of these.
struct OptionsWant<'a> {
    exact: &'a Option<Vec<String>>,
    include: &'a [String],
    exclude: &'a [String],
}

fn check_options(
    r: &Rules,
    s: &State,
    options: &[Choice],
    want: OptionsWant,
    path: &str,
    pr: &mut Problems,
) {
    let listed = |options: &[Choice]| {
        if options.is_empty() {
            return "none".to_string();
        }
        options
            .iter()
            .map(|c| format_choice(r, s, *c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(exact) = want.exact {
        let mut matched = Vec::new();
        for (i, w) in exact.iter().enumerate() {
            match parse_choice(r, s, w, options) {
                Ok(c) => matched.push(c),
                Err(_) => pr.at(
                    &format!("{path}.options[{i}]"),
                    format!(
                        "{path}.options: `{w}` is not an option; the options are: {}",
                        listed(options)
                    ),
                ),
            }
        }
        matched.sort();
        matched.dedup();
        if matched.len() == exact.len() && matched.len() != options.len() {
            pr.at(
                &format!("{path}.options"),
                format!(
                    "{path}.options: expected {} options, got {}: {}",
                    exact.len(),
                    options.len(),
                    listed(options)
                ),
            );
        }
    }
    for (i, w) in want.include.iter().enumerate() {
        if parse_choice(r, s, w, options).is_err() {
            pr.at(
                &format!("{path}.options_include[{i}]"),
                format!(
                    "{path}.options_include: `{w}` is not an option; the options are: {}",
                    listed(options)
                ),
            );
        }
    }
    for (i, w) in want.exclude.iter().enumerate() {
        if parse_choice(r, s, w, options).is_ok() {
            pr.at(
                &format!("{path}.options_exclude[{i}]"),
                format!("{path}.options_exclude: `{w}` is an option"),
            );
        }
    }
}
