//! Play chosen on the table itself (issue 36): every option of a seat's
//! decision names the drawn thing it is chosen by — a card in the hand or
//! on the table, a track token, a board space, a pile, a colour printed on
//! the card played, a momentum space — and what it would change, so a
//! whole game can be played by clicking the board, the track and the hand
//! only, never the option buttons or the notation box.
//!
//! Over HTTP, against the library playing the same game: each option's
//! targets exist in the seat's view, and the effects say what the rules
//! say (R5.3, R5.6, R6, R7.6).

use crate::common;

use common::http::Client;
use common::mirror::Mirror;
use common::server::Server;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use watergate::game::engine::{Choice, DecisionKind, TokenRef};
use watergate::game::model::Side;

/// A pseudo-random index below `len` for step `n` (the test's own choices).
fn pick(n: u64, len: usize) -> usize {
    let mut z = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    z ^= z >> 29;
    (z % len as u64) as usize
}

/// The sign of a step toward `side` on the track (R1.3: the Editor's
/// spaces are the positive ones).
fn toward(side: Side) -> i64 {
    match side {
        Side::Editor => 1,
        Side::Nixon => -1,
    }
}

/// Where a token stands on the track of `view`, by its option name.
fn token_pos(view: &Value, token: &str) -> Option<i64> {
    match token {
        "initiative" => view["initiative_token"].as_i64(),
        "momentum" => view["momentum_token"].as_i64(),
        ev => {
            let slot: u64 = ev.strip_prefix("ev")?.parse().ok()?;
            view["track"]
                .as_array()?
                .iter()
                .find(|t| t["slot"].as_u64() == Some(slot))
                .and_then(|t| t["pos"].as_i64())
        }
    }
}

/// Whether `target` names a thing drawn in the seat's `view` (the box's
/// spaces from `game`): a click on the table can only choose what is there.
fn drawn(target: &Value, view: &Value, game: &Value) -> Result<(), String> {
    let ids = |list: &Value| -> Vec<String> {
        list.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|c| c["id"].as_str())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    };
    let card = target["card"].as_str().unwrap_or("");
    let on_table: Vec<&Value> = view["in_play"]
        .as_array()
        .map(|a| a.iter().map(|p| &p["card"]).collect())
        .unwrap_or_default();
    let ok = match target["at"].as_str().unwrap_or("") {
        "hand" => ids(&view["hand"]).iter().any(|c| c == card),
        "table" => on_table.iter().any(|c| c["id"] == card),
        "colour" => on_table.iter().any(|c| {
            c["id"] == card
                && c["colours"]
                    .as_array()
                    .is_some_and(|cs| cs.contains(&target["colour"]))
        }),
        "pile" => match target["pile"].as_str().unwrap_or("") {
            "bag" => true,
            "editor_discard" => ids(&view["discards"]["editor"]).iter().any(|c| c == card),
            "nixon_discard" => ids(&view["discards"]["nixon"]).iter().any(|c| c == card),
            "removed" => ids(&view["removed"]).iter().any(|c| c == card),
            _ => false,
        },
        "token" => token_pos(view, target["token"].as_str().unwrap_or("")).is_some(),
        "track" => target["pos"]
            .as_i64()
            .is_some_and(|p| p.abs() <= view["track_length"].as_i64().unwrap_or(0)),
        "space" => game["spaces"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == target["space"]),
        "momentum" => {
            let side = target["side"].as_str().unwrap_or("");
            let spaces = game["momentum_cards"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["side"].as_str().map(str::to_lowercase).as_deref() == Some(side))
                .map(|m| m["spaces"].as_array().unwrap().len() as u64)
                .unwrap_or(0);
            target["space"]
                .as_u64()
                .is_some_and(|n| n >= 1 && n <= spaces)
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{target} is not drawn on the seat's table"))
    }
}

/// The decision kind's name (`ValueTarget`, `Pin`, …), for coverage.
fn kind_name(k: &DecisionKind) -> String {
    let d = format!("{k:?}");
    d.split([' ', '{', '(']).next().unwrap_or("").to_string()
}

/// Checks every option of one decision against the rules: its targets are
/// drawn, and its effects are what the rule the decision follows says.
fn check_decision(view: &Value, game: &Value, m: &Mirror, ctx: &str) {
    let side = m.options().0.expect("a player's decision");
    let d = m.state.decision(&m.rules).expect("a decision");
    let listed = view["decision"]["options"]
        .as_array()
        .expect("the seat's decision");
    assert_eq!(listed.len(), d.options.len(), "{ctx}: the options offered");
    for (o, c) in listed.iter().zip(&d.options) {
        let targets = o["targets"].as_array().expect("targets");
        let effects = o["effects"].as_array().expect("effects");
        // Every option is chosen somewhere on the table.
        assert!(!targets.is_empty(), "{ctx}: option {o} is drawn nowhere");
        for t in targets.iter().chain(effects) {
            if let Err(e) = drawn(t, view, game) {
                panic!("{ctx}: option {}: {e}", o["notation"]);
            }
        }
        let track = |pos: i64| json!({"at": "track", "pos": pos});
        let l = view["track_length"].as_i64().unwrap();
        match (&d.kind, c) {
            // R5.3: a value moves one token exactly the card's value toward
            // the player's side; steps past space 5 are lost.
            (
                DecisionKind::ValueTarget { card } | DecisionKind::LockedTarget { card, .. },
                Choice::Token(_),
            ) => {
                let from = token_pos(view, o["token"].as_str().unwrap()).unwrap();
                let value = i64::from(m.rules.card(*card).value);
                let to = (from + toward(side) * value).clamp(-l, l);
                assert!(
                    effects.contains(&track(to)),
                    "{ctx}: moving {} from {from} by {value}: effects {effects:?}",
                    o["token"]
                );
                assert!(targets.contains(&json!({"at": "token", "token": o["token"]})));
            }
            // R5.6: the Editor names a colour printed on her card; one of
            // the face-down tokens on the track turns up.
            (DecisionKind::ValueTarget { card }, Choice::Ask(colour)) => {
                let want = json!({"at": "colour", "card": m.rules.card(*card).id, "colour": colour.name()});
                assert_eq!(targets, &vec![want], "{ctx}: the ask");
                let down = view["track"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|t| t["face_up"] == false)
                    .count();
                assert_eq!(effects.len(), down, "{ctx}: the face-down tokens asked for");
            }
            // R7.6: a token with the momentum symbol moves the momentum
            // token one step toward the pinner, if it is on the track.
            (
                DecisionKind::Pin {
                    momentum_symbol, ..
                },
                Choice::Space(_),
            ) => {
                let m_pos = view["momentum_token"].as_i64();
                match (momentum_symbol, m_pos) {
                    (true, Some(p)) => assert!(
                        effects.contains(&track((p + toward(side)).clamp(-l, l))),
                        "{ctx}: pinning a ★ token: effects {effects:?}"
                    ),
                    _ => assert!(effects.is_empty(), "{ctx}: effects {effects:?}"),
                }
            }
            // R6: a reaction, and letting the play stand, are chosen on the
            // hand's card and on the play answered.
            (DecisionKind::Reaction { against }, Choice::Pass) => {
                let want = json!({"at": "table", "card": m.rules.card(*against).id});
                assert_eq!(targets, &vec![want], "{ctx}: the pass");
            }
            (DecisionKind::Reaction { against }, Choice::React(card)) => {
                let hand = json!({"at": "hand", "card": m.rules.card(*card).id});
                let play = json!({"at": "table", "card": m.rules.card(*against).id});
                assert_eq!(targets, &vec![hand], "{ctx}: the reaction");
                assert_eq!(effects, &vec![play], "{ctx}: what the reaction answers");
            }
            // R5.1: on a turn, a card of the hand for one of its parts.
            (DecisionKind::PlayCard, Choice::Play { card, .. }) => {
                let hand = json!({"at": "hand", "card": m.rules.card(*card).id});
                assert_eq!(targets, &vec![hand], "{ctx}: the play");
            }
            (_, Choice::Token(TokenRef::Evidence(slot))) => {
                assert!(targets.contains(&json!({"at": "token", "token": format!("ev{slot}")})));
            }
            _ => {}
        }
    }
}

/// Plays hotseat games over HTTP, the test choosing for both seats, the
/// library mirroring each; checks every decision of both seats.
#[test]
fn every_option_of_both_seats_is_named_where_the_table_draws_it() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let game = c.get("/api/game", None).json();
    let mut kinds = BTreeSet::new();
    let mut decisions = 0;
    for seed in [3u64, 17, 29, 41, 58, 76] {
        let r = c.post(
            "/api/games",
            None,
            &json!({"mode": "hotseat", "seed": seed}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let created = r.json();
        let id = created["game"].as_str().unwrap().to_string();
        let token = |side: Side| created["seats"][side.key()].as_str().unwrap().to_string();
        let mut m = Mirror::new(seed, None);
        for n in 0u64.. {
            let ctx = format!("seed {seed}, choice {n}");
            let Some(side) = m.options().0 else {
                let v = c
                    .get(&format!("/api/games/{id}"), Some(&token(Side::Editor)))
                    .json();
                assert!(!v["outcome"].is_null(), "{ctx}: the game is over");
                break;
            };
            let r = c.get(&format!("/api/games/{id}"), Some(&token(side)));
            assert_eq!(r.status, 200, "{ctx}: {}", r.body);
            let view = r.json();
            kinds.insert(kind_name(&m.state.decision(&m.rules).unwrap().kind));
            check_decision(&view, &game, &m, &ctx);
            decisions += 1;
            let options = m.options().1.len();
            let i = pick(seed * 1000 + n, options);
            let r = c.post(
                &format!("/api/games/{id}/choose"),
                Some(&token(side)),
                &json!({"option": i, "step": view["step"]}),
            );
            assert_eq!(r.status, 200, "{ctx}: {}", r.body);
            m.choose(i);
            assert!(n < 5000, "{ctx}: the game does not end");
        }
    }
    eprintln!("{decisions} decisions checked, kinds: {kinds:?}");
    // The decisions of every round: turns (R5.1), value targets (R5.3),
    // pinning (R7.6) and a card's action (R5.9) at least.
    for k in ["PlayCard", "ValueTarget", "Pin", "Action"] {
        assert!(kinds.contains(k), "no {k} decision in the games: {kinds:?}");
    }
}
