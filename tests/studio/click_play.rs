//! Play chosen on the table itself (issue 36): every option of a seat's
//! decision names the drawn thing it is chosen by — a card in the hand or
//! on the table, a track token, a board space, a pile, a colour printed on
//! the card played, a momentum space — and what it would change, so a
//! whole game can be played by clicking the board, the track and the hand
//! only, never the option buttons or the notation box.
//!
//! Over HTTP, against the library playing the same game: each option's
//! targets exist in the seat's view, and the effects say what the rules
//! say (R5.3, R5.6, R6, R7.6). In Chromium (WATERGATE_REQUIRE_BROWSER=1:
//! never skipped in CI): a whole game clicked on the table to its end, and
//! hover and keyboard focus lighting up where a token would go.

use crate::common;

pub(crate) use common::browser::step;
use common::browser::{element, moves_off, run, wait_css, wait_for, wait_in_page};
use common::http::Client;
use common::mirror::Mirror;
use common::server::Server;
use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction};
use fantoccini::{Client as Browser, Locator};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use watergate::game::engine::{Ask, Choice, DecisionKind, TokenRef};
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
        // A pile named without a card is the pile itself (where a card or
        // a token goes); with a card, the card must be in it.
        "pile" => {
            let within =
                |list: &Value| target["card"].is_null() || ids(list).iter().any(|c| c == card);
            match target["pile"].as_str().unwrap_or("") {
                "bag" => target["card"].is_null(),
                "editor_discard" => within(&view["discards"]["editor"]),
                "nixon_discard" => within(&view["discards"]["nixon"]),
                "removed" => within(&view["removed"]),
                _ => false,
            }
        }
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

/// The decision kind's name (`ValueTarget`, `Pin`, `Action/ChooseCard`…),
/// for coverage.
fn kind_name(k: &DecisionKind) -> String {
    let first = |d: String| d.split([' ', '{', '(']).next().unwrap_or("").to_string();
    match k {
        DecisionKind::Action { ask, .. } => format!("Action/{}", first(format!("{ask:?}"))),
        k => first(format!("{k:?}")),
    }
}

/// Checks every option of one decision against the rules: its targets are
/// drawn, and its effects are what the rule the decision follows says.
fn check_decision(view: &Value, game: &Value, m: &Mirror, ctx: &str) {
    let side = m.options().0.expect("a player's decision");
    let d = m.decision().expect("a decision");
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
            (DecisionKind::Reaction { against }, Choice::Pass) if !m.paused() => {
                let want = json!({"at": "table", "card": m.rules.card(*against).id});
                assert_eq!(targets, &vec![want], "{ctx}: the pass");
            }
            // A hotseat pause comes after the play resolved: the card is
            // passed on wherever it now lies (a pile, or the table while
            // its action runs).
            (DecisionKind::Reaction { against }, Choice::Pass) => {
                assert_eq!(targets.len(), 1, "{ctx}: the pause's pass");
                assert_eq!(
                    targets[0]["card"],
                    json!(m.rules.card(*against).id),
                    "{ctx}: the pause's pass"
                );
            }
            (DecisionKind::Reaction { against }, Choice::React(card)) => {
                let hand = json!({"at": "hand", "card": m.rules.card(*card).id});
                let play = json!({"at": "table", "card": m.rules.card(*against).id});
                assert_eq!(targets, &vec![hand], "{ctx}: the reaction");
                assert_eq!(effects, &vec![play], "{ctx}: what the reaction answers");
            }
            // R5.1: on a turn, a card of the hand for one of its parts;
            // R5.7: played for its value, it goes onto its owner's discard.
            (DecisionKind::PlayCard, Choice::Play { card, part }) => {
                let hand = json!({"at": "hand", "card": m.rules.card(*card).id});
                assert_eq!(targets, &vec![hand], "{ctx}: the play");
                let discard = json!({"at": "pile", "pile": format!("{}_discard", side.key())});
                assert_eq!(
                    effects.contains(&discard),
                    *part == watergate::game::model::Part::Value,
                    "{ctx}: {}: effects {effects:?}",
                    o["notation"]
                );
            }
            // R5.13: "to space k" puts the token on space k of the acting
            // player's side.
            (
                DecisionKind::Action {
                    ask: Ask::Place { space, .. },
                    ..
                },
                Choice::Token(_),
            ) => {
                let to = toward(side) * i64::from(*space);
                assert!(
                    effects.contains(&track(to)),
                    "{ctx}: placing {} on {to}: effects {effects:?}",
                    o["token"]
                );
            }
            // R1.6: a picture is chosen on its informant's space.
            (_, Choice::Picture(p)) => {
                let sp = m.rules.board.informant_spaces[p.index()];
                let want = json!({"at": "space", "space": m.rules.board.spaces[sp.index()].id});
                assert_eq!(targets, &vec![want], "{ctx}: the picture");
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
            kinds.insert(if m.paused() {
                "Pause".to_string()
            } else {
                kind_name(&m.decision().unwrap().kind)
            });
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
    // The games reach the decisions the checks above are about: turns
    // (R5.1), value targets (R5.3), Nixon's reveal (R5.6), reactions (R6)
    // and the hotseat's pauses after a play nobody could answer,
    // pins (R7.6), and in card actions (R5.9) a token moved and a card
    // chosen from a hand or a pile.
    for k in [
        "PlayCard",
        "ValueTarget",
        "Reveal",
        "Reaction",
        "Pause",
        "Pin",
        "Action/Move",
        "Action/ChooseCard",
    ] {
        assert!(kinds.contains(k), "no {k} decision in the games: {kinds:?}");
    }
}

fn e(e: fantoccini::error::CmdError) -> String {
    e.to_string()
}

/// Starts a game against the random agent from the Play page, the human
/// playing `mode`, dealt from `seed`; each choice's result is shown at
/// once (no moves played back).
pub(crate) async fn start(c: &Browser, url: &str, mode: &str, seed: u64) -> Result<(), String> {
    c.goto(&format!("{url}#/play")).await.map_err(e)?;
    // A game played before in this tab would be shown again: forget it,
    // and load the page afresh.
    c.execute("sessionStorage.removeItem('watergate.play')", vec![])
        .await
        .map_err(e)?;
    c.refresh().await.map_err(e)?;
    wait_css(c, "#start", 20).await?;
    moves_off(c).await?;
    c.find(Locator::Css(&format!("#mode option[value='{mode}']")))
        .await
        .map_err(e)?
        .click()
        .await
        .map_err(e)?;
    let ai = c.find(Locator::Css("#ai")).await.map_err(e)?;
    ai.clear().await.map_err(e)?;
    ai.send_keys("random").await.map_err(e)?;
    c.find(Locator::Css("#seed"))
        .await
        .map_err(e)?
        .send_keys(&seed.to_string())
        .await
        .map_err(e)?;
    c.find(Locator::Css("#start"))
        .await
        .map_err(e)?
        .click()
        .await
        .map_err(e)?;
    wait_css(c, "svg.board", 30).await?;
    Ok(())
}

/// Where the table draws things (the track, the board, the cards on the
/// table, the hand, the momentum cards, the piles): the only places the
/// whole-game test clicks. The decision panel (its option buttons and the
/// notation box) is not one of them.
const TABLE: &str = "svg.track, svg.board, .in-play, .hand, .momentum, .piles";

/// What the page offers on the table now, as a script's expression: for
/// each target, its option indices and whether it lies on the table; and
/// every option's index as the decision panel lists it (read, never
/// clicked).
fn offered_js() -> String {
    format!(
        "[[...document.querySelectorAll('.targetable')].map((el) => \
           [el.dataset.options.split(' ').map(Number), !!el.closest('{TABLE}') && !el.closest('#decision')]), \
         [...document.querySelectorAll('#decision button.option')].map((b) => Number(b.dataset.index))]"
    )
}

/// [`offered_js`]'s answer: the targets, and the options listed.
type Offered = (Vec<(Vec<u64>, bool)>, Vec<u64>);

fn read_offered(v: &Value) -> Result<Offered, String> {
    let numbers = |v: &Value| -> Vec<u64> {
        v.as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default()
    };
    let targets = v[0]
        .as_array()
        .ok_or_else(|| format!("no targets in {v}"))?
        .iter()
        .map(|t| (numbers(&t[0]), t[1].as_bool() == Some(true)))
        .collect();
    Ok((targets, numbers(&v[1])))
}

/// Waits until the page shows a new step (or the game's end, or an error).
pub(crate) async fn moved_on(
    c: &Browser,
    before: &Option<String>,
    clicks: usize,
) -> Result<(), String> {
    common::browser::moved_on(c, before, clicks, "#outcome").await
}

/// Plays the game dealt from `seed` as `mode` against the random agent
/// by clicking only the table: at each decision every option must be
/// reachable there, a pseudo-random target is clicked, and a target that
/// stands for several options must open a menu of exactly those. `check`,
/// if given, is a script run at each decision, returning a list of the
/// problems it finds on the page: any fails the game. `picture`, if
/// given, names the README's picture taken at the 30th decision
/// (`WATERGATE_PAGE_SHOTS`). Returns how many decisions were checked.
pub(crate) async fn click_to_the_end(
    c: &Browser,
    url: &str,
    mode: &str,
    seed: u64,
    check: Option<&str>,
    picture: Option<&str>,
) -> Result<usize, String> {
    start(c, url, mode, seed).await?;
    let mut clicks = 0usize;
    let mut menus = 0usize;
    // At each decision, one script waits in the page for the game's end or
    // the decision's options, then reads what is offered, runs the check
    // and reads the step counter, all on the same page.
    let at_decision = wait_in_page(&format!(
        "const outcome = document.querySelector('#outcome'); \
         if (outcome) return {{ outcome: outcome.innerText }}; \
         if (!document.querySelector('#decision button.option')) return undefined; \
         const p = document.querySelector('div.play'); \
         return {{ offered: {offered}, \
                  problems: (() => {{ {check} }})(), \
                  step: p ? p.getAttribute('data-step') : null }};",
        offered = offered_js(),
        check = check.unwrap_or("return [];"),
    ));
    // A menu's items, once it is open: their option indices and elements.
    let menu_items = wait_in_page(
        "const m = document.querySelector('.target-menu'); \
         if (!m) return undefined; \
         const items = [...m.querySelectorAll('button[role=menuitem]')]; \
         return { indices: items.map((b) => b.getAttribute('data-index') || ''), items };",
    );
    loop {
        let now = wait_for(c, &at_decision, vec![], &format!("after click {clicks}")).await?;
        if let Some(text) = now.get("outcome") {
            let text = text.as_str().unwrap_or_default();
            // R8: the game ends with a winner, and the page says who.
            if !text.contains("Game over") || !text.contains("wins") {
                return Err(format!("the outcome reads {text:?}"));
            }
            eprintln!("game over after {clicks} clicks on the table ({menus} menus): {text}");
            if menus == 0 {
                return Err("no card stood for two options in a whole game".into());
            }
            return Ok(clicks);
        }
        if clicks > 3000 {
            return Err("no end after 3000 clicks".into());
        }
        let (targets, options) = read_offered(&now["offered"])?;
        // Every option of the decision can be chosen on the table.
        let reachable: BTreeSet<u64> = targets.iter().flat_map(|t| t.0.clone()).collect();
        let listed: BTreeSet<u64> = options.iter().copied().collect();
        if reachable != listed {
            return Err(format!(
                "click {clicks}: options {listed:?} listed, {reachable:?} on the table"
            ));
        }
        if let Some(t) = targets.iter().find(|t| !t.1) {
            return Err(format!("click {clicks}: a target off the table: {t:?}"));
        }
        let found = &now["problems"];
        if found.as_array().is_none_or(|a| !a.is_empty()) {
            return Err(format!("click {clicks} ({mode}, seed {seed}): {found}"));
        }
        if let Some(name) = picture.filter(|_| clicks == 30) {
            crate::common::browser::shot(c, name).await?;
        }
        let before = now["step"].as_str().map(str::to_string);
        let i = pick(clicks as u64, targets.len());
        // A card is clicked on its name: its middle may be one of the
        // buttons a card of the hand carries for each of its options, and
        // the click would be that button's, not the card's.
        let spot = c
            .execute(
                "const el = document.querySelectorAll('.targetable')[arguments[0]]; \
                 return el ? el.querySelector(':scope > header') || el : null;",
                vec![json!(i)],
            )
            .await
            .map_err(e)?;
        let spot = element(c, &spot).ok_or("the targets changed under the test")?;
        spot.click()
            .await
            .map_err(|x| format!("click {clicks}: {x}"))?;
        clicks += 1;
        if targets[i].0.len() > 1 {
            // A target standing for several options opens a menu of
            // exactly those, beside it on the table.
            let menu = wait_for(
                c,
                &menu_items,
                vec![],
                &format!("the menu after click {clicks}"),
            )
            .await?;
            let indices: Vec<String> = menu["indices"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|i| i.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            let want: Vec<String> = targets[i].0.iter().map(u64::to_string).collect();
            if indices != want {
                return Err(format!(
                    "click {clicks}: the menu offers {indices:?}, the target {want:?}"
                ));
            }
            let chosen = &menu["items"][pick(clicks as u64 + 7, indices.len())];
            element(c, chosen)
                .ok_or("the menu's items are not elements")?
                .click()
                .await
                .map_err(|x| format!("menu after click {clicks}: {x}"))?;
            menus += 1;
        }
        moved_on(c, &before, clicks).await?;
    }
}

/// R5–R8, the whole game as the Editor at the table plays it: each turn a
/// card of the hand (R5.1), its value's token on the track (R5.3) or the
/// colour asked for on the card (R5.6), each pin on a board space (R7.6),
/// a reaction on the play it answers (R6) — clicked where they are drawn,
/// a menu beside a card that stands for several options, never an option
/// button or the notation box — until the page names the winner (R8).
///
/// At each decision the track is also compared with what the server tells
/// the Editor's seat (`LACKS_DRAWN`): a face-down token she asked for in
/// vain is drawn with a struck-out dot for each colour it lacks (R5.6),
/// and no other token has any. The game must show her at least one.
#[test]
fn a_whole_game_is_played_by_clicking_only_the_board_the_track_and_the_hand() {
    run("click_play_whole_game", &[], |c, url| async move {
        let script = crate::table_layout::check(&[LACKS_DRAWN]);
        click_to_the_end(&c, &url, "editor", 23, Some(&script), None).await?;
        let seen = c
            .execute("return window.lacksSeen || 0", vec![])
            .await
            .map_err(e)?;
        eprintln!("face-down tokens drawn with what they lack: {seen}");
        if seen.as_u64().unwrap_or(0) == 0 {
            return Err("no face-down token was known to lack a colour in the whole game".into());
        }
        Ok(())
    });
}

/// R5.6 on the Editor's track: each face-down token the server says lacks
/// some colours (`ruled_out`, asked in vain) is drawn with one struck-out
/// dot of each, in its colour and with its letter, inside its disc; every
/// other token has no dot. The seat's view is read from the server as the
/// page reads it (a synchronous request, so the check stays one script).
/// Counts the tokens with dots in `window.lacksSeen`.
const LACKS_DRAWN: &str = r##"
const fill = { blue: "#3b82c4", yellow: "#e3b505", green: "#3f9c4a" };
const letter = { blue: "B", yellow: "Y", green: "G" };
const s = JSON.parse(sessionStorage.getItem('watergate.play'));
const x = new XMLHttpRequest();
x.open('GET', `/api/games/${s.game}?since=0&after=0`, false);
x.setRequestHeader('X-Seat-Token', s.seats.editor);
x.send();
const v = JSON.parse(x.responseText);
for (const t of v.track) {
  const g = document.querySelector(`svg.track g.token[data-token="ev${t.slot}"]`);
  if (!g) { problems.push(`ev${t.slot} is not drawn`); continue; }
  const want = t.face_up || t.kind ? [] : (t.ruled_out || []);
  const dots = [...g.querySelectorAll('circle.lack')];
  const drawn = dots.map((d) => d.dataset.colour);
  if (JSON.stringify(drawn) !== JSON.stringify(want)) {
    problems.push(`ev${t.slot} lacks ${JSON.stringify(want)}, drawn ${JSON.stringify(drawn)}`);
  }
  for (const d of dots) {
    if (d.getAttribute('fill') !== fill[d.dataset.colour]) problems.push(`ev${t.slot}: the ${d.dataset.colour} dot is ${d.getAttribute('fill')}`);
    // The colour is never the only cue: each dot carries its letter.
    const l = d.nextElementSibling;
    if (!l || !l.matches('text.lack-letter') || l.textContent !== letter[d.dataset.colour]) problems.push(`ev${t.slot}: the ${d.dataset.colour} dot has no letter ${letter[d.dataset.colour]}`);
    const a = d.getBoundingClientRect(), b = g.querySelector('circle').getBoundingClientRect();
    if (a.left < b.left || a.right > b.right || a.top < b.top || a.bottom > b.bottom) problems.push(`ev${t.slot}: a dot outside the disc`);
  }
  if (want.length) {
    window.lacksSeen = (window.lacksSeen || 0) + 1;
    if (!g.querySelector('title').textContent.includes(`not ${want.join(' nor ')}`)) problems.push(`ev${t.slot}: the title does not say what it lacks`);
  }
}
"##;

/// The same as Nixon, whose seat has decisions of its own: the face-down
/// token he turns up when the Editor asks (R5.6), his pins, face down
/// (R7.6), his reactions to her events (R6.2), whichever the deal brings.
#[test]
fn a_whole_game_as_nixon_is_played_by_clicking_only_the_table() {
    run("click_play_whole_game_nixon", &[], |c, url| async move {
        click_to_the_end(&c, &url, "nixon", 31, None, None)
            .await
            .map(|_| ())
    });
}

/// R5.3 on the page: hovering a track token in a value play, or focusing
/// it from the keyboard, lights up the track space it would reach — the
/// card's value toward the player's side — and leaving it puts the light out.
#[test]
fn hover_and_focus_light_up_where_a_value_play_would_move_a_token() {
    run("click_play_hover_effect", &[], |c, url| async move {
        start(&c, &url, "editor", 5).await?;
        // R5.1: the Editor opens the round (R2.2); a card of the hand for
        // its value, from the card's menu.
        let card = wait_css(&c, ".hand article.card.targetable", 30).await?;
        let before = step(&c).await;
        // On its name: its middle may be one of its own option buttons.
        card.find(Locator::Css(":scope > header"))
            .await
            .map_err(e)?
            .click()
            .await
            .map_err(e)?;
        // A card whose action may be used too opens its menu (R5.11: the
        // value may always be used); one that can only be played for its
        // value is played at once.
        if c.find(Locator::Css(".target-menu")).await.is_ok() {
            let mut value = None;
            for it in c
                .find_all(Locator::Css(".target-menu button[role=menuitem]"))
                .await
                .map_err(e)?
            {
                if it.text().await.map_err(e)?.ends_with("for its value") {
                    value = Some(it);
                }
            }
            value
                .ok_or("the card's menu has no value play")?
                .click()
                .await
                .map_err(e)?;
        }
        moved_on(&c, &before, 1).await?;
        // R2.3: the initiative token starts on space 0, and the Editor may
        // move it with her value.
        let token = wait_css(&c, "svg.track g.targetable[data-token='initiative']", 20).await?;
        let value: i64 = c
            .find(Locator::Css(".in-play article.card .value"))
            .await
            .map_err(e)?
            .text()
            .await
            .map_err(e)?
            .trim()
            .parse()
            .map_err(|x| format!("the card on the table has no value: {x}"))?;
        let from: i64 = token
            .attr("data-pos")
            .await
            .map_err(e)?
            .unwrap_or_default()
            .parse()
            .map_err(|x| format!("the token has no position: {x}"))?;
        // R5.3: toward the Editor (the positive side, R1.3); steps past her
        // space 5 are lost.
        let want = format!("track:{}", (from + value).clamp(-5, 5));
        let lit = "return [...document.querySelectorAll('svg.track .effect')].map((el) => el.dataset.target)";
        let none: Value = c.execute(lit, vec![]).await.map_err(e)?;
        if none != json!([]) {
            return Err(format!("lit before any hover: {none}"));
        }
        let hover = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element: token.clone(),
            duration: None,
            x: 0.0,
            y: 0.0,
        });
        c.perform_actions(hover).await.map_err(e)?;
        let hovered: Value = c.execute(lit, vec![]).await.map_err(e)?;
        if hovered != json!([want]) {
            return Err(format!(
                "hovering the initiative token lights {hovered}, wanted [{want}]"
            ));
        }
        // Off the token, nothing is lit.
        let away = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element: c.find(Locator::Css("header.top")).await.map_err(e)?,
            duration: None,
            x: 0.0,
            y: 0.0,
        });
        c.perform_actions(away).await.map_err(e)?;
        let off: Value = c.execute(lit, vec![]).await.map_err(e)?;
        if off != json!([]) {
            return Err(format!("still lit after the pointer left: {off}"));
        }
        // Keyboard focus lights the same space; the token names itself and
        // its option to a screen reader.
        c.execute(
            "document.querySelector(\"svg.track g.targetable[data-token='initiative']\").focus()",
            vec![],
        )
        .await
        .map_err(e)?;
        let focused: Value = c.execute(lit, vec![]).await.map_err(e)?;
        if focused != json!([want]) {
            return Err(format!(
                "focusing the initiative token lights {focused}, wanted [{want}]"
            ));
        }
        let label = token
            .attr("aria-label")
            .await
            .map_err(e)?
            .unwrap_or_default();
        if !label.contains("initiative")
            || token.attr("role").await.map_err(e)?.as_deref() != Some("button")
        {
            return Err(format!("the token reads {label:?} to a screen reader"));
        }
        // Enter on the focused token chooses it: the game moves on.
        let before = step(&c).await;
        let enter = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: '\u{E007}' })
            .then(KeyAction::Up { value: '\u{E007}' });
        c.perform_actions(enter).await.map_err(e)?;
        moved_on(&c, &before, 2).await?;
        Ok(())
    });
}

/// Presses one key (a WebDriver key code) on whatever has the focus.
async fn press(c: &Browser, key: char) -> Result<(), String> {
    let k = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    c.perform_actions(k).await.map_err(e)
}

/// What has the focus: its class and its option index or card, if any.
async fn focused(c: &Browser) -> Result<Value, String> {
    c.execute(
        "const a = document.activeElement; \
         return [a.className.baseVal ?? a.className, a.dataset.index ?? a.dataset.card ?? null]",
        vec![],
    )
    .await
    .map_err(e)
}

/// R5.1 from the keyboard: a card of the hand is played for one of its two
/// parts. Enter on a card that may be played either way opens the menu of
/// its parts with the focus on the first; the arrows walk it; Escape
/// closes it and gives the focus back to the card; Enter on a part plays it.
#[test]
fn a_card_s_menu_of_its_two_parts_is_opened_walked_and_closed_from_the_keyboard() {
    run("click_play_keyboard_menu", &[], |c, url| async move {
        start(&c, &url, "editor", 5).await?;
        wait_css(&c, ".hand article.card.targetable", 30).await?;
        // A card with two options: its value and its action.
        let card: Value = c
            .execute(
                "const el = [...document.querySelectorAll('.hand article.card.targetable')] \
                   .find((el) => el.dataset.options.split(' ').length === 2); \
                 if (!el) return null; el.focus(); return el.dataset.card",
                vec![],
            )
            .await
            .map_err(e)?;
        let Some(card) = card.as_str().map(str::to_string) else {
            return Err("no card of the hand may be played for its action".into());
        };
        press(&c, '\u{E007}').await?;
        let items = c
            .find_all(Locator::Css(".target-menu button[role=menuitem]"))
            .await
            .map_err(e)?;
        let mut texts = Vec::new();
        for it in &items {
            texts.push(it.text().await.map_err(e)?);
        }
        if texts.len() != 2
            || !texts[0].ends_with("for its value")
            || !texts[1].ends_with("for its action")
        {
            return Err(format!("the menu of {card} offers {texts:?}"));
        }
        let first = items[0].attr("data-index").await.map_err(e)?;
        let second = items[1].attr("data-index").await.map_err(e)?;
        if focused(&c).await? != json!(["target-option", first]) {
            return Err(format!(
                "the menu opened with the focus on {}",
                focused(&c).await?
            ));
        }
        press(&c, '\u{E015}').await?; // ArrowDown
        if focused(&c).await? != json!(["target-option", second]) {
            return Err(format!(
                "ArrowDown moved the focus to {}",
                focused(&c).await?
            ));
        }
        press(&c, '\u{E00C}').await?; // Escape
        if c.find(Locator::Css(".target-menu")).await.is_ok() {
            return Err("Escape left the menu open".into());
        }
        let back = focused(&c).await?;
        if back[1] != json!(card) {
            return Err(format!(
                "after Escape the focus is on {back}, not the card {card}"
            ));
        }
        // Again, and Enter on the first part: the value is played.
        let before = step(&c).await;
        press(&c, '\u{E007}').await?;
        press(&c, '\u{E007}').await?;
        moved_on(&c, &before, 1).await?;
        let table = c
            .find(Locator::Css(".in-play"))
            .await
            .map_err(e)?
            .text()
            .await
            .map_err(e)?;
        if !table.contains("for its value") {
            return Err(format!("the table after Enter, Enter reads {table:?}"));
        }
        Ok(())
    });
}
