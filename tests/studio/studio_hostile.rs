//! The studio against a hostile client on loopback (issue 41): no request
//! kills it or holds it up, every refusal is JSON with a reason, and no
//! refusal echoes a huge input back.

use crate::common;
use crate::common::temp::TempFolder;

use common::http::{Client, Response};
use common::server::Server;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn error_of(r: &Response) -> String {
    r.json()["error"].as_str().unwrap_or_default().to_string()
}

/// The server still answers, and at once.
fn alive(c: &Client) {
    let t = Instant::now();
    let r = c.get("/api/game", None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn an_opponent_is_bounded_to_what_a_shared_machine_answers_at_once() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    for (ai, why) in [
        // Asked for 32 GB up front and killed the server.
        ("ismcts:999999999", "at most 20000 iterations"),
        // Took 4 s before the game existed.
        ("ismcts:200000", "at most 20000 iterations"),
        // Did not answer in 60 s.
        ("ismcts:60000ms", "at most 2000 ms"),
        ("ismcts:1000:threads=8", "at most 2 threads"),
    ] {
        let t = Instant::now();
        let r = c.post("/api/games", None, &json!({"mode": "editor", "ai": ai}));
        assert_eq!(r.status, 400, "{ai}: {}", r.body);
        assert!(error_of(&r).contains(why), "{ai}: {}", r.body);
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{ai}: {:?}",
            t.elapsed()
        );
        alive(&c);
    }
    // Within the bounds the game is made, and the opponent replies.
    for ai in ["ismcts:20000:threads=2", "ismcts:50ms:threads=2"] {
        let r = c.post("/api/games", None, &json!({"mode": "nixon", "ai": ai}));
        assert_eq!(r.status, 201, "{ai}: {}", r.body);
    }
}

#[test]
fn the_studio_s_default_opponent_is_the_terminal_s() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let r = c.post("/api/games", None, &json!({"mode": "editor"}));
    assert_eq!(r.status, 201, "{}", r.body);
    let created = r.json();
    let v = c
        .get(
            &format!("/api/games/{}", created["game"].as_str().unwrap()),
            created["seats"]["editor"].as_str(),
        )
        .json();
    assert_eq!(v["opponent"], json!("ismcts:10000:threads=2"), "{v}");
    // The terminal's `--ai` default, as its help says.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(["play", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("[default: ismcts:10000:threads=2]"));
}

#[test]
fn every_refusal_is_json_even_axum_s_own() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let r = c.post("/api/games", None, &json!({"mode": "hotseat", "seed": 3}));
    let created = r.json();
    let id = created["game"].as_str().unwrap();
    let seat = created["seats"]["editor"].as_str();
    // A bad query string: was a plain-text 400.
    let r = c.get(&format!("/api/games/{id}?since=many"), seat);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r
        .header("content-type")
        .unwrap_or("")
        .starts_with("application/json"));
    assert!(error_of(&r).contains("since"), "{}", r.body);
    // A method the route does not take: was an empty 405.
    let r = c.get("/api/games", None);
    assert_eq!(r.status, 405, "{}", r.body);
    assert!(error_of(&r).contains("does not take GET"), "{}", r.body);
    assert_eq!(r.header("allow"), Some("POST"));
    let r = c.send("DELETE", "/api/game", &[], b"");
    assert_eq!(r.status, 405, "{}", r.body);
    assert!(!error_of(&r).is_empty(), "{}", r.body);
    alive(&c);
}

#[test]
fn a_refusal_never_echoes_a_huge_input_in_full() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let huge = "x".repeat(100_000);
    for body in [json!({"mode": "editor", "ai": huge}), json!({"mode": huge})] {
        let r = c.post("/api/games", None, &body);
        assert_eq!(r.status, 400, "{}", &r.body[..r.body.len().min(300)]);
        let e = error_of(&r);
        assert!(e.len() < 2_500, "an error of {} bytes", e.len());
        assert!(e.contains("cut:"), "{}", &e[..e.len().min(300)]);
    }
    let r = c.get(&format!("/api/games/{}", "0".repeat(50_000)), Some("t"));
    assert!(r.body.len() < 2_500, "{} bytes", r.body.len());
    alive(&c);
}

#[test]
fn a_missing_log_is_missing_from_the_log_folder() {
    let dir = TempFolder::new("wg-hostile-logs");
    std::fs::create_dir_all(dir.join("watergate/logs")).unwrap();
    let server = Server::start_with(&[], &[("XDG_DATA_HOME", &dir)]);
    let c = Client::new(server.port);
    let r = c.post(
        "/api/replay",
        None,
        &json!({"log": {"folder": "user", "name": "nope.log.ron"}}),
    );
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(
        error_of(&r),
        "there is no file `nope.log.ron` in the log folder"
    );
    let _: Value = r.json();
}

#[test]
fn an_opponent_thinking_holds_up_no_other_game() {
    let server = Server::start(&[]);
    let port = server.port;
    // The Editor's agent thinks 2 s a decision before the game exists.
    let slow = std::thread::spawn(move || {
        let c = Client::new(port);
        let t = Instant::now();
        let r = c.post(
            "/api/games",
            None,
            &json!({"mode": "nixon", "ai": "ismcts:2000ms:threads=2"}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        t.elapsed()
    });
    std::thread::sleep(Duration::from_millis(300));
    let c = Client::new(port);
    let t = Instant::now();
    let r = c.post("/api/games", None, &json!({"mode": "hotseat"}));
    assert_eq!(r.status, 201, "{}", r.body);
    alive(&c);
    let quick = t.elapsed();
    let slow = slow.join().unwrap();
    assert!(
        quick < Duration::from_secs(1) && quick < slow,
        "another game answered in {quick:?} while the agent thought for {slow:?}"
    );
}
