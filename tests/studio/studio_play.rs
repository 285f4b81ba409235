//! Play in the studio over HTTP (`watergate serve`), on the raw responses:
//! each player sees only their view (R4.3, R5.14), and every defence holds
//! (Host and Origin checks, bounded bodies, unknown games and seats, bad
//! choices refused with the game unchanged, the bound on open games).

use crate::common;
use crate::common::temp::TempFolder;

use common::http::Client;
use common::mirror::Mirror;
use common::server::Server;
use serde_json::{json, Value};
use watergate::game::model::Side;

fn new_game(c: &Client, body: Value) -> (String, Value) {
    let r = c.post("/api/games", None, &body);
    assert_eq!(r.status, 201, "{}", r.body);
    let v = r.json();
    (v["game"].as_str().unwrap().to_string(), v)
}

/// A pseudo-random option index for step `n` (the test's own choices).
fn pick(n: u64, len: usize) -> usize {
    let mut z = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    z ^= z >> 29;
    (z % len as u64) as usize
}

/// Checks one raw response to the Editor against the full state behind it;
/// returns how many forbidden strings were searched for (cards, kinds) and
/// how many face-down tokens were shown with what a vain ask told of them.
fn assert_editor_sees_only_their_view(
    body: &str,
    m: &Mirror,
    context: &str,
) -> (usize, usize, usize) {
    let forbidden = m.forbidden();
    let kinds = forbidden
        .iter()
        .filter(|f| !f.contains('.') && (f.contains('/') || f.ends_with('*')))
        .count();
    for bad in &forbidden {
        assert!(
            !body.contains(bad.as_str()),
            "{context}: a response to the Editor contains `{bad}`, which the Editor may not know:\n{body}"
        );
    }
    let v: Value = serde_json::from_str(body).expect("a JSON view");
    let down = m.face_down_slots();
    let mut known = 0;
    for t in v["track"].as_array().expect("the track") {
        let slot = t["slot"].as_u64().unwrap() as u8;
        if down.contains(&slot) {
            assert!(
                t["kind"].is_null() && t["face_up"] == false,
                "{context}: the face-down token ev{slot} is shown to the Editor: {t}"
            );
        }
        // What a vain ask told everyone (R5.6) is shown, and only that.
        let token = m.state.track()[slot as usize];
        let lacks: Vec<&str> = m.state.ruled_out(token).iter().map(|c| c.name()).collect();
        let shown: Vec<&str> = (t["ruled_out"].as_array().into_iter().flatten())
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(shown, lacks, "{context}: what is known of ev{slot}: {t}");
        known += usize::from(!lacks.is_empty());
    }
    // The view's hand is the Editor's own.
    let hand: Vec<&str> = v["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    let want: Vec<&str> = m
        .state
        .hand(Side::Editor)
        .iter()
        .map(|c| m.rules.card(*c).id.as_str())
        .collect();
    assert_eq!(hand, want, "{context}: the Editor's hand");
    (forbidden.len() - kinds, kinds, known)
}

/// Plays a whole game over HTTP, mirrored in the library; every response
/// for the Editor's seat is checked. `random`: the random agent plays Nixon
/// (else hotseat, the test choosing for both). Returns the choices made.
fn play_whole_game_checking_the_editor(
    server: &Server,
    seed: u64,
    random: bool,
    searched: &mut (usize, usize, usize),
) -> usize {
    let c = Client::new(server.port);
    let body = if random {
        json!({"mode": "editor", "ai": "random", "seed": seed})
    } else {
        json!({"mode": "hotseat", "seed": seed})
    };
    let (id, created) = new_game(&c, body);
    let tokens = [
        created["seats"]["editor"].as_str().unwrap().to_string(),
        created["seats"]["nixon"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_default(),
    ];
    let mut m = Mirror::new(seed, random.then_some(Side::Nixon));
    let mut since = [0usize; 2];
    let mut n = 0u64;
    loop {
        let ctx = format!("seed {seed}, choice {n}");
        let r = c.get(
            &format!("/api/games/{id}?since={}", since[0]),
            Some(&tokens[0]),
        );
        assert_eq!(r.status, 200, "{ctx}: {}", r.body);
        let (cards, kinds, known) = assert_editor_sees_only_their_view(&r.body, &m, &ctx);
        searched.0 += cards;
        searched.1 += kinds;
        searched.2 += known;
        let ev = r.json();
        since[0] += ev["log"]["lines"].as_array().unwrap().len();
        let (to_move, options) = m.options();
        let Some(side) = to_move else {
            assert!(
                !ev["outcome"].is_null(),
                "{ctx}: the game is over, the page must say so"
            );
            assert_eq!(
                ev["outcome"]["winner"],
                json!(m.state.outcome().unwrap().winner),
                "{ctx}: the winner"
            );
            return n as usize;
        };
        let seat = side.index();
        let view = if side == Side::Editor {
            ev
        } else {
            let r = c.get(
                &format!("/api/games/{id}?since={}", since[1]),
                Some(&tokens[1]),
            );
            assert_eq!(r.status, 200, "{ctx}: {}", r.body);
            let v = r.json();
            since[1] += v["log"]["lines"].as_array().unwrap().len();
            v
        };
        let listed = view["decision"]["options"]
            .as_array()
            .expect("the seat's decision");
        assert_eq!(listed.len(), options.len(), "{ctx}: the options offered");
        let i = pick(seed * 1000 + n, options.len());
        assert_eq!(listed[i]["notation"], json!(m.notation(i)), "{ctx}");
        let r = c.post(
            &format!("/api/games/{id}/choose"),
            Some(&tokens[seat]),
            &json!({"option": i, "step": view["step"], "since": since[seat]}),
        );
        assert_eq!(r.status, 200, "{ctx}: {}", r.body);
        m.choose(i);
        if side == Side::Editor {
            // The answer to the Editor's choice is itself a response to the Editor.
            assert_editor_sees_only_their_view(&r.body, &m, &ctx);
            since[0] += r.json()["log"]["lines"].as_array().unwrap().len();
        } else {
            since[1] += r.json()["log"]["lines"].as_array().unwrap().len();
        }
        n += 1;
        assert!(n < 5000, "{ctx}: the game does not end");
    }
}

#[test]
fn no_response_to_the_editor_holds_a_face_down_kind_nixon_s_hand_or_a_deck_s_order() {
    let server = Server::start(&[]);
    let mut searched = (0, 0, 0);
    for seed in [1, 2] {
        let n = play_whole_game_checking_the_editor(&server, seed, false, &mut searched);
        assert!(n > 20, "hotseat seed {seed}: a whole game ({n} choices)");
    }
    for seed in [3, 4] {
        let n = play_whole_game_checking_the_editor(&server, seed, true, &mut searched);
        assert!(
            n > 10,
            "against random, seed {seed}: a whole game ({n} choices)"
        );
    }
    // The search had something to find: hidden cards at every response,
    // and distinctive face-down kinds at some; and face-down tokens known
    // to lack a colour (R5.6) at some.
    assert!(
        searched.0 > 1000 && searched.1 > 10 && searched.2 > 0,
        "searched for {searched:?}"
    );
}

#[test]
fn the_leak_check_catches_a_leak() {
    // The check above must be able to fail: the Nixon seat's own view
    // holds Nixon's hand, and the check refuses it as an Editor response.
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let (id, created) = new_game(&c, json!({"mode": "hotseat", "seed": 1}));
    let m = Mirror::new(1, None);
    let r = c.get(
        &format!("/api/games/{id}"),
        created["seats"]["nixon"].as_str(),
    );
    assert_eq!(r.status, 200);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        assert_editor_sees_only_their_view(&r.body, &m, "Nixon's view");
    }));
    assert!(caught.is_err(), "Nixon's own view passes as the Editor's");
}

/// A game's view, for comparing before and after a refused request.
fn snapshot(c: &Client, id: &str, seat: &str) -> Value {
    let r = c.get(&format!("/api/games/{id}"), Some(seat));
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

fn error_of(r: &common::http::Response) -> String {
    r.json()["error"].as_str().unwrap_or_default().to_string()
}

#[test]
fn requests_for_another_host_or_from_another_origin_are_refused() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    // DNS rebinding: a foreign name resolving to 127.0.0.1 sends its own Host.
    let r = c.send("GET", "/api/game", &[("Host", "attacker.example:80")], b"");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(error_of(&r).contains("Host header"), "{}", r.body);
    let port_wrong = format!("127.0.0.1:{}", server.port.wrapping_add(1));
    let r = c.send("GET", "/", &[("Host", &port_wrong)], b"");
    assert_eq!(r.status, 403, "another port: {}", r.body);
    for ok in ["localhost", "127.0.0.1", "[::1]"] {
        let host = format!("{ok}:{}", server.port);
        let r = c.send("GET", "/api/game", &[("Host", &host)], b"");
        assert_eq!(r.status, 200, "{host}: {}", r.body);
    }
    // Another site's page posting to the studio.
    let body = json!({"mode": "hotseat"}).to_string();
    let r = c.send(
        "POST",
        "/api/games",
        &[("Origin", "http://attacker.example")],
        body.as_bytes(),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(error_of(&r).contains("origin"), "{}", r.body);
    let own = format!("http://localhost:{}", server.port);
    let r = c.send("POST", "/api/games", &[("Origin", &own)], body.as_bytes());
    assert_eq!(r.status, 201, "the studio's own origin: {}", r.body);
}

/// Bound to every interface, the studio is opened by one of the machine's
/// addresses, which it cannot list: any IP address with its port is this
/// server (an address cannot be rebound by DNS); a name still is not.
#[test]
fn a_studio_on_every_interface_answers_to_an_ip_address_but_not_to_a_name() {
    let server = Server::start(&["--host", "0.0.0.0"]);
    assert_eq!(server.url, format!("http://127.0.0.1:{}/", server.port));
    let c = Client::new(server.port);
    for ok in ["192.0.2.7", "127.0.0.1", "localhost", "[2001:db8::7]"] {
        let host = format!("{ok}:{}", server.port);
        let r = c.send("GET", "/api/game", &[("Host", &host)], b"");
        assert_eq!(r.status, 200, "{host}: {}", r.body);
    }
    let name = format!("attacker.example:{}", server.port);
    let r = c.send("GET", "/api/game", &[("Host", &name)], b"");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(
        error_of(&r).contains("this machine's IP address"),
        "the refusal says how to open the studio: {}",
        r.body
    );
    let port_wrong = format!("192.0.2.7:{}", server.port.wrapping_add(1));
    let r = c.send("GET", "/api/game", &[("Host", &port_wrong)], b"");
    assert_eq!(r.status, 403, "another port: {}", r.body);
    // The studio's own pages, opened by an address, may post to it.
    let body = json!({"mode": "hotseat"}).to_string();
    let own = format!("http://192.0.2.7:{}", server.port);
    let r = c.send("POST", "/api/games", &[("Origin", &own)], body.as_bytes());
    assert_eq!(r.status, 201, "the studio's own origin: {}", r.body);
    let foreign = format!("http://attacker.example:{}", server.port);
    let r = c.send(
        "POST",
        "/api/games",
        &[("Origin", &foreign)],
        body.as_bytes(),
    );
    assert_eq!(r.status, 403, "{}", r.body);
}

#[test]
fn an_oversized_body_is_refused_and_bad_json_is_a_clear_400() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let big = vec![b' '; 300 * 1024];
    let r = c.send("POST", "/api/games", &[], &big);
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(error_of(&r).contains("larger than"), "{}", r.body);
    // A body that announces no length is cut off at the limit just the same.
    let mut chunked = format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        c.host
    )
    .into_bytes();
    for _ in 0..40 {
        chunked.extend_from_slice(format!("{:x}\r\n", 8192).as_bytes());
        chunked.extend_from_slice(&[b' '; 8192]);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let r = c.send_raw(&chunked);
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(error_of(&r).contains("larger than"), "{}", r.body);
    let r = c.send("POST", "/api/games", &[], b"{not json");
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(error_of(&r).contains("JSON"), "{}", r.body);
    // A body declared as a form or as text is not taken for JSON (a page
    // on another site may send those without asking), whatever it holds.
    for declared in ["text/plain", "application/x-www-form-urlencoded"] {
        let r = c.send(
            "POST",
            "/api/games",
            &[("Content-Type", declared)],
            br#"{"mode": "hotseat"}"#,
        );
        assert_eq!(r.status, 415, "{declared}: {}", r.body);
        assert!(
            error_of(&r).contains("Content-Type: application/json"),
            "{}",
            r.body
        );
    }
    let r = c.send(
        "POST",
        "/api/games",
        &[("Content-Type", "application/json; charset=utf-8")],
        br#"{"mode": "hotseat"}"#,
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let r = c.post("/api/games", None, &json!({"mode": "spectator"}));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        error_of(&r).contains("expected hotseat, editor or nixon"),
        "{}",
        r.body
    );
    let r = c.post(
        "/api/games",
        None,
        &json!({"mode": "editor", "ai": "ismcts:lots"}),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let r = c.get("/api/nothing-here", None);
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(!error_of(&r).is_empty());
    let r = c.get("/studio/../Cargo.toml", None);
    assert_eq!(
        r.status, 404,
        "no file outside the embedded pages: {}",
        r.body
    );
}

#[test]
fn unknown_games_and_seats_are_refused() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let (id, created) = new_game(&c, json!({"mode": "editor", "ai": "random", "seed": 9}));
    let editor = created["seats"]["editor"].as_str().unwrap();
    assert!(
        created["seats"]["nixon"].is_null(),
        "the agent's seat has no token"
    );
    assert_eq!(id.len(), 32, "a 128-bit id");
    let r = c.get("/api/games/00000000000000000000000000000000", Some(editor));
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(error_of(&r).contains("no game"), "{}", r.body);
    let r = c.get(&format!("/api/games/{id}"), None);
    assert_eq!(r.status, 403, "no seat token: {}", r.body);
    let r = c.get(&format!("/api/games/{id}"), Some("not-a-token"));
    assert_eq!(r.status, 403, "{}", r.body);
    // The game id alone opens nothing.
    let r = c.get(&format!("/api/games/{id}"), Some(&id));
    assert_eq!(r.status, 403, "{}", r.body);
}

#[test]
fn a_bad_choice_is_refused_with_the_engine_s_reason_and_the_game_is_unchanged() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let (id, created) = new_game(&c, json!({"mode": "hotseat", "seed": 5}));
    let seats = [
        created["seats"]["editor"].as_str().unwrap(),
        created["seats"]["nixon"].as_str().unwrap(),
    ];
    let e = snapshot(&c, &id, seats[0]);
    let n = snapshot(&c, &id, seats[1]);
    let (mover, other) = if e["decision"].is_null() {
        (seats[1], seats[0])
    } else {
        (seats[0], seats[1])
    };
    let before = snapshot(&c, &id, mover);
    let options = before["decision"]["options"].as_array().unwrap().len();
    let path = format!("/api/games/{id}/choose");
    let refused = [
        (
            c.post(&path, Some(mover), &json!({"option": options})),
            422,
            "there is no option",
        ),
        (
            c.post(&path, Some(mover), &json!({"text": "fly to the moon"})),
            422,
            "",
        ),
        (
            c.post(&path, Some(other), &json!({"option": 0})),
            422,
            "not yours",
        ),
        (
            c.post(&path, Some(mover), &json!({"option": 0, "step": 999})),
            409,
            "moved on",
        ),
        (
            c.post(&path, Some(mover), &json!({"option": 0, "text": "pass"})),
            400,
            "either",
        ),
        (
            c.post(&path, Some(mover), &json!({"choice": 0})),
            400,
            "unknown field",
        ),
        (
            c.post(&format!("/api/games/{id}/undo"), Some(mover), &json!({})),
            409,
            "nothing to undo",
        ),
    ];
    for (r, status, words) in refused {
        assert_eq!(r.status, status, "{}", r.body);
        assert!(error_of(&r).contains(words), "`{words}` in {}", r.body);
    }
    assert_eq!(
        snapshot(&c, &id, seats[0]),
        e,
        "the Editor's view is unchanged"
    );
    assert_eq!(snapshot(&c, &id, seats[1]), n, "Nixon's view is unchanged");
    // After all those refusals a good choice is still taken.
    let r = c.post(&path, Some(mover), &json!({"option": 0}));
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn a_position_is_saved_in_hotseat_or_once_the_game_is_over_never_during_a_game_against_an_agent() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let (id, created) = new_game(&c, json!({"mode": "editor", "ai": "random", "seed": 8}));
    let seat = created["seats"]["editor"].as_str().unwrap();
    let v = snapshot(&c, &id, seat);
    assert_eq!(v["can_save"], false);
    let r = c.get(&format!("/api/games/{id}/scenario"), Some(seat));
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(error_of(&r).contains("once the game is over"), "{}", r.body);
    let r = c.get(&format!("/api/games/{id}/log"), Some(seat));
    assert_eq!(r.status, 403, "{}", r.body);
    // Play to the end; then both downloads are open.
    let mut v = v;
    while v["outcome"].is_null() {
        let r = c.post(
            &format!("/api/games/{id}/choose"),
            Some(seat),
            &json!({"option": 0}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        v = r.json();
    }
    let r = c.get(&format!("/api/games/{id}/scenario"), Some(seat));
    assert_eq!(r.status, 200, "{}", r.body);
    let r = c.get(&format!("/api/games/{id}/log"), Some(seat));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("choices"), "{}", r.body);

    let (id, created) = new_game(&c, json!({"mode": "hotseat", "seed": 8}));
    let seat = created["seats"]["editor"].as_str().unwrap();
    let r = c.get(&format!("/api/games/{id}/scenario"), Some(seat));
    assert_eq!(r.status, 200, "{}", r.body);
    // The file is a scenario the library loads, at this very position.
    let dir = TempFolder::new("watergate-studio-save");
    let file = dir.join("saved.ron");
    std::fs::write(&file, &r.body).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(["scenario", file.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_number_of_open_games_is_bounded() {
    let server = Server::start(&["--max-games", "2"]);
    let c = Client::new(server.port);
    let (a, ca) = new_game(&c, json!({"mode": "hotseat"}));
    new_game(&c, json!({"mode": "hotseat"}));
    let r = c.post("/api/games", None, &json!({"mode": "hotseat"}));
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(
        error_of(&r).contains("the studio is full: 2 games"),
        "{}",
        r.body
    );
    // Closing one makes room.
    let r = c.send(
        "DELETE",
        &format!("/api/games/{a}"),
        &[("X-Seat-Token", ca["seats"]["editor"].as_str().unwrap())],
        b"",
    );
    assert_eq!(r.status, 204, "{}", r.body);
    new_game(&c, json!({"mode": "hotseat"}));
}

#[test]
fn a_finished_game_gives_way_to_a_new_one_when_the_studio_is_full() {
    let server = Server::start(&["--max-games", "2"]);
    let c = Client::new(server.port);
    play_whole_game_checking_the_editor(&server, 5, true, &mut (0, 0, 0));
    let (open, created) = new_game(&c, json!({"mode": "hotseat"}));
    // Full, but one of the two is over (R8): it makes room.
    new_game(&c, json!({"mode": "hotseat"}));
    // The game in play is kept; with no finished game left, the studio is full.
    let seat = created["seats"]["editor"].as_str().unwrap();
    assert_eq!(c.get(&format!("/api/games/{open}"), Some(seat)).status, 200);
    let r = c.post("/api/games", None, &json!({"mode": "hotseat"}));
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(error_of(&r).contains("none is finished"), "{}", r.body);
}

#[test]
fn idle_games_expire() {
    let server = Server::start(&["--idle-timeout", "1"]);
    let c = Client::new(server.port);
    let (id, created) = new_game(&c, json!({"mode": "hotseat"}));
    let seat = created["seats"]["editor"].as_str().unwrap();
    assert_eq!(c.get(&format!("/api/games/{id}"), Some(seat)).status, 200);
    std::thread::sleep(std::time::Duration::from_millis(1600));
    let r = c.get(&format!("/api/games/{id}"), Some(seat));
    assert_eq!(r.status, 404, "{}", r.body);
}

#[test]
fn serve_plays_the_game_it_is_given() {
    let variant = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/variants/no_gambit.ron"
    );
    let server = Server::start(&["--variant", variant]);
    let c = Client::new(server.port);
    let edited = c.get("/api/game", None).json();
    let shipped_server = Server::start(&[]);
    let shipped = Client::new(shipped_server.port)
        .get("/api/game", None)
        .json();
    assert!(
        edited["source"].as_str().unwrap().contains("no_gambit.ron"),
        "{edited}"
    );
    assert_ne!(edited["fingerprint"], shipped["fingerprint"]);
    // A position saved from one of its games keeps the variant: the
    // download names the variant file by its absolute path.
    let (id, created) = new_game(&c, json!({"mode": "hotseat", "seed": 4}));
    let seat = created["seats"]["editor"].as_str().unwrap();
    let r = c.get(&format!("/api/games/{id}/scenario"), Some(seat));
    assert_eq!(r.status, 200, "{}", r.body);
    let named = std::path::Path::new(variant).canonicalize().unwrap();
    assert!(
        r.body
            .contains(&format!("variant: \"{}\"", named.display())),
        "{}",
        r.body
    );
}

#[test]
fn every_kind_of_agent_answers_and_nixon_can_be_played_too() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    for (mode, ai) in [
        ("editor", "heuristic"),
        ("editor", "ismcts:30"),
        ("nixon", "random"),
        ("nixon", "ismcts:30"),
    ] {
        let (id, created) = new_game(&c, json!({"mode": mode, "ai": ai, "seed": 4}));
        let seat = created["seats"][mode].as_str().unwrap();
        let mut v = snapshot(&c, &id, seat);
        assert_eq!(v["opponent"], json!(ai));
        let mut made = 0;
        for k in 0..4 {
            if !v["outcome"].is_null() {
                break;
            }
            made += 1;
            // The agent has played up to the seat's own decision.
            assert!(
                v["decision"].is_object(),
                "{mode} against {ai}, choice {k}: {v}"
            );
            let r = c.post(
                &format!("/api/games/{id}/choose"),
                Some(seat),
                &json!({"option": 0}),
            );
            assert_eq!(r.status, 200, "{mode} against {ai}: {}", r.body);
            v = r.json();
        }
        // Every change counts a step: more steps than the seat's choices
        // are the agent's replies.
        assert!(
            v["step"].as_u64().unwrap() > made,
            "{mode} against {ai}: the agent replied ({v})"
        );
    }
}

/// The table fields of a view or a move: what the page draws.
fn table_of(v: &Value) -> Value {
    let keys = [
        "track",
        "board",
        "pictures",
        "initiative_token",
        "momentum_token",
        "momentum",
        "hand",
        "hand_sizes",
        "deck_sizes",
        "discards",
        "removed",
        "bag",
        "in_play",
        "held_token",
    ];
    Value::Object(
        keys.iter()
            .map(|k| (k.to_string(), v[*k].clone()))
            .collect(),
    )
}

/// Issue 36's playback: a choice's answer, asked with `moves`, holds the
/// table after each choice taken since the seat's step — its own, then the
/// opponent's, one by one — each as the seat saw it then: built from its
/// view (no face-down kind, no card of Nixon's hand it had not seen), with
/// the narration it had been told by then; the last is the table the view
/// shows. Asked again (`?after=`), the same moves; not asked, none.
#[test]
fn a_choice_s_answer_holds_each_step_of_the_opponent_s_turn_as_the_seat_saw_it() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let seed = 6;
    let (id, created) = new_game(&c, json!({"mode": "editor", "ai": "random", "seed": seed}));
    let seat = created["seats"]["editor"].as_str().unwrap().to_string();
    let mut m = Mirror::new(seed, Some(Side::Nixon));
    let (mut longest, mut checked) = (0, 0);
    for n in 0u64.. {
        let ctx = format!("choice {n}");
        let r = c.get(&format!("/api/games/{id}"), Some(&seat));
        assert_eq!(r.status, 200, "{ctx}: {}", r.body);
        let view = r.json();
        assert!(view.get("moves").is_none(), "{ctx}: moves not asked for");
        if !view["outcome"].is_null() {
            break;
        }
        let step = view["step"].as_u64().unwrap();
        let i = pick(seed * 1000 + n, m.options().1.len());
        let r = c.post(
            &format!("/api/games/{id}/choose"),
            Some(&seat),
            &json!({"option": i, "step": step, "moves": true}),
        );
        assert_eq!(r.status, 200, "{ctx}: {}", r.body);
        let after = r.json();
        let moves = after["moves"].as_array().expect("the moves").clone();
        let mut k = 0;
        m.choose_watching(i, |side, m| {
            let mv = moves
                .get(k)
                .unwrap_or_else(|| panic!("{ctx}: move {k} missing"));
            let at = format!("{ctx}, move {k}");
            // Its own choice first, then the agent's; steps one by one.
            assert_eq!(mv["mover"], json!(side), "{at}");
            assert_eq!(mv["step"].as_u64(), Some(step + 1 + k as u64), "{at}");
            assert_editor_sees_only_their_view(&mv.to_string(), m, &at);
            k += 1;
        });
        assert_eq!(k, moves.len(), "{ctx}: one move per choice taken");
        let last = moves.last().expect("at least the seat's own choice");
        assert_eq!(
            table_of(last),
            table_of(&after),
            "{ctx}: the last move is the view's table"
        );
        let lines: Vec<u64> = moves
            .iter()
            .map(|mv| mv["lines"].as_u64().unwrap())
            .collect();
        assert!(
            lines.windows(2).all(|w| w[0] <= w[1]),
            "{ctx}: narration {lines:?}"
        );
        let told = after["log"]["from"].as_u64().unwrap()
            + after["log"]["lines"].as_array().unwrap().len() as u64;
        assert_eq!(
            lines.last(),
            Some(&told),
            "{ctx}: the narration of the last move"
        );
        // Asked again, the same.
        let again = c
            .get(&format!("/api/games/{id}?after={step}"), Some(&seat))
            .json();
        assert_eq!(again["moves"], after["moves"], "{ctx}: asked again");
        longest = longest.max(moves.iter().filter(|mv| mv["mover"] == "Nixon").count());
        checked += moves.len();
        assert!(n < 5000, "{ctx}: the game does not end");
    }
    // The game had turns of the opponent's of more than one step to show,
    // and passes of the agent's in a reaction window (R6) that it was
    // offered only for holding a card that could answer: no move of the
    // Editor's, and no step (`m.choose_watching` leaves them out; the
    // steps above count one by one).
    assert!(
        longest >= 2 && checked > 40,
        "longest {longest}, moves {checked}"
    );
    assert!(m.secret_choices > 0, "no pass of the agent's to hide");
}

/// In hotseat each seat is kept the moves it has not seen — the other's
/// included — each built from its own view: a seat taking the screen gets
/// the other's choices since its own last one, and never a card of the
/// other's hand in them.
#[test]
fn a_hotseat_seat_is_kept_the_other_s_moves_as_it_saw_them() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let seed = 3;
    let (id, created) = new_game(&c, json!({"mode": "hotseat", "seed": seed}));
    let token = |side: Side| created["seats"][side.key()].as_str().unwrap().to_string();
    let mut m = Mirror::new(seed, None);
    let mut seen = [0u64; 2];
    let mut others = 0;
    for n in 0u64..400 {
        let Some(side) = m.options().0 else { break };
        let me = side.index();
        let r = c.get(
            &format!("/api/games/{id}?after={}", seen[me]),
            Some(&token(side)),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let view = r.json();
        let moves = view["moves"].as_array().expect("moves asked for");
        for mv in moves {
            let hand: Vec<&str> = mv["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["side"].as_str().unwrap())
                .collect();
            assert!(
                hand.iter().all(|s| *s == json!(side).as_str().unwrap()),
                "choice {n}: {side:?}'s move holds another hand: {hand:?}"
            );
            assert!(
                mv["step"].as_u64().unwrap() > seen[me],
                "choice {n}: an old move"
            );
            others += usize::from(mv["mover"] != json!(side));
        }
        if let Some(last) = moves.last() {
            assert_eq!(table_of(last), table_of(&view), "choice {n}: the last move");
        }
        let i = pick(seed * 1000 + n, m.options().1.len());
        let r = c.post(
            &format!("/api/games/{id}/choose"),
            Some(&token(side)),
            &json!({"option": i, "step": view["step"]}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        seen[me] = view["step"].as_u64().unwrap();
        m.choose(i);
    }
    assert!(
        others > 20,
        "only {others} moves of the other seat were kept"
    );
}

/// Hotseat and R6: seed 21, the Editor plays Recruit Dean for its action,
/// which then asks her to move a token. Nixon holds no card that may answer
/// it, but John Mitchell lies out of her sight (his deck): had he held it,
/// the screen would have gone to him at the reaction window. So it goes to
/// him all the same, with passing his only option, and only then back to
/// her: the handovers do not tell whether he held one.
#[test]
fn in_hotseat_the_screen_goes_to_nixon_after_a_play_he_could_not_answer() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let (id, created) = new_game(&c, json!({"mode": "hotseat", "seed": 21}));
    let token = |side: &str| created["seats"][side].as_str().unwrap().to_string();
    let view = |side: &str| {
        let r = c.get(&format!("/api/games/{id}"), Some(&token(side)));
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    let choose = |side: &str, answer: Value| {
        c.post(
            &format!("/api/games/{id}/choose"),
            Some(&token(side)),
            &answer,
        )
    };
    let r = choose("editor", json!({"text": "editor.recruit_dean action"}));
    assert_eq!(r.status, 200, "{}", r.body);

    let editor = view("editor");
    assert!(editor["decision"].is_null(), "{editor}");
    assert_eq!(editor["waiting_for"], json!("Nixon"));
    let nixon = view("nixon");
    let prompt = nixon["decision"]["prompt"].as_str().unwrap();
    assert!(
        prompt.starts_with("Editor plays Recruit Dean as an informant: react, or pass.")
            && prompt.contains("You hold no card that may answer it."),
        "{prompt}"
    );
    let options = nixon["decision"]["options"].as_array().unwrap();
    assert_eq!(options.len(), 1, "{nixon}");
    assert_eq!(options[0]["notation"], json!("pass"));

    // Only Nixon may answer the pause, and only by passing.
    let r = choose("editor", json!({"option": 0}));
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("it is Nixon's decision"), "{}", r.body);
    let r = choose("nixon", json!({"option": 1}));
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(view("nixon")["decision"], nixon["decision"]);

    let r = choose("nixon", json!({"text": "pass"}));
    assert_eq!(r.status, 200, "{}", r.body);
    let nixon = view("nixon");
    assert!(nixon["decision"].is_null(), "{nixon}");
    assert_eq!(nixon["waiting_for"], json!("Editor"));
    let editor = view("editor");
    let prompt = editor["decision"]["prompt"].as_str().unwrap();
    assert!(
        prompt.starts_with("Recruit Dean as an informant:"),
        "{prompt}"
    );
}
