//! The studio's Replay, Puzzles, Cards, Live-data and Lab endpoints over
//! real HTTP: a `watergate serve` process on a free loopback port, plain
//! HTTP/1.1 requests. Bad input gets a 4xx with a reason; no path from a
//! request is opened outside the data folder.

use crate::common;
use crate::common::temp::TempFolder;

use std::path::Path;
use std::time::{Duration, Instant};

/// A `watergate serve` child (tests/common/server.rs) and a client for it.
struct Server {
    _server: common::server::Server,
    client: common::http::Client,
}

impl Server {
    fn start(data: Option<&Path>) -> Server {
        let d = data.map(|d| d.display().to_string());
        let args: Vec<&str> = match &d {
            Some(d) => vec!["--data", d.as_str()],
            None => vec![],
        };
        let server = common::server::Server::start(&args);
        let client = common::http::Client::new(server.port);
        Server {
            _server: server,
            client,
        }
    }

    /// `(status, body)` of one request.
    fn call(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        let r = self
            .client
            .send(method, path, &[], body.unwrap_or("").as_bytes());
        (r.status, r.body)
    }

    fn json(
        &self,
        method: &str,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> (u16, serde_json::Value) {
        let text = body.map(|b| b.to_string());
        let (status, out) = self.call(method, path, text.as_deref());
        let v = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{path}: not JSON: {out}"));
        (status, v)
    }
}

/// A copy of the shipped data and scenarios in a fresh folder, removed
/// when dropped.
fn data_copy(name: &str) -> TempFolder {
    let dir = TempFolder::new(&format!("wg-studio-{name}"));
    watergate::data::DataSet::embedded().write_to(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in [
        "scenarios/puzzles",
        "scenarios/puzzles/mined",
        "scenarios/variants",
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        for e in std::fs::read_dir(root.join(sub)).unwrap().flatten() {
            if e.path().is_file() {
                std::fs::copy(e.path(), dir.join(sub).join(e.file_name())).unwrap();
            }
        }
    }
    dir
}

fn error_of(v: &serde_json::Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {v}"))
}

/// The page names its icon, which is served: else the browser asks for
/// `/favicon.ico`, a 404 in every page's console.
#[test]
fn the_page_names_an_icon_the_studio_serves() {
    let srv = Server::start(None);
    let (status, page) = srv.call("GET", "/", None);
    assert_eq!(status, 200);
    assert!(
        page.contains(r#"<link rel="icon" href="/studio/icon.svg""#),
        "{page}"
    );
    let (status, icon) = srv.call("GET", "/studio/icon.svg", None);
    assert_eq!(status, 200);
    assert!(icon.starts_with("<svg"), "{icon}");
}

#[test]
fn the_cards_endpoint_serves_all_42_cards_with_their_placeholder_marks() {
    let srv = Server::start(None);
    let (status, v) = srv.json("GET", "/api/cards", None);
    assert_eq!(status, 200);
    let cards = v["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 42);
    let ftm = cards.iter().find(|c| c["number"] == 42).unwrap();
    assert_eq!(ftm["name"], "Follow the money!");
    let marks: Vec<&str> = ftm["placeholders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["question"].as_str().unwrap())
        .collect();
    assert!(marks.contains(&"D2"), "{marks:?}");
}

/// A game played on from a scenario with edits carries them in its log's
/// start: Replay plays it with them (here one informant to connect, R8.3);
/// edits that name a file are refused (the studio reads no file a page
/// names).
#[test]
fn a_log_with_edits_replays_with_them_and_one_naming_a_file_is_refused() {
    let srv = Server::start(None);
    let log = |edits: &str| {
        format!(
            "GameLog(version: 1, fingerprint: \"0\", start: Scenario(seed: 3, edits: Some(({edits}))), players: PerSide(editor: \"random\", nixon: \"random\"), choices: [])"
        )
    };
    let text = log("game: Some((informants_to_connect: Some(1)))");
    let (status, v) = srv.json(
        "POST",
        "/api/replay",
        Some(serde_json::json!({ "text": text, "name": "edits.log.ron" })),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["steps"][0]["table"]["informants_to_connect"], 1, "{v}");
    let text = log("files: [(\"scripts/nixon/gambit.rhai\", \"/etc/passwd\")]");
    let (status, v) = srv.json(
        "POST",
        "/api/replay",
        Some(serde_json::json!({ "text": text, "name": "files.log.ron" })),
    );
    assert_eq!(status, 422, "{v}");
    assert!(error_of(&v).contains("a log's edits name no files"), "{v}");
    assert!(!error_of(&v).contains("root:"), "{v}");
}

#[test]
fn a_log_replays_step_by_step_and_a_bad_log_is_refused_with_its_line() {
    let srv = Server::start(None);
    let (text, _) = common::logged_game(11);
    let body = serde_json::json!({ "text": text, "name": "g.ron" });
    let (status, v) = srv.json("POST", "/api/replay", Some(body));
    assert_eq!(status, 200, "{v}");
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len() as u64, v["choices"].as_u64().unwrap() + 1);
    assert!(v["problem"].is_null());
    // The whole game: every track token's kind is shown.
    assert!(steps.iter().all(|s| s["table"]["track"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| !t["kind"].is_null())));
    // In Play's shape: the hand drawn from the Editor's chair, Nixon's
    // face up beside it.
    assert_eq!(steps[1]["table"]["seat"], "Editor");
    assert_eq!(
        steps[1]["table"]["hand"],
        steps[1]["table"]["hands"]["editor"]
    );
    // A side's view: that seat's table, as Play would have sent it, at
    // each choice he saw made: not the Editor's passes (the Editor is never
    // asked which token to turn up, the other choice kept from the other
    // side).
    let body = serde_json::json!({ "text": text, "name": "g.ron", "view": "nixon" });
    let (status, v) = srv.json("POST", "/api/replay", Some(body));
    assert_eq!(status, 200, "{v}");
    let seen = v["steps"].as_array().unwrap();
    let passes = |steps: &[serde_json::Value], who: &str| {
        steps
            .iter()
            .filter(|s| s["actor"] == who && s["notation"] == "pass")
            .count()
    };
    assert!(
        passes(steps, "Editor") > 0,
        "game 11 has no pass of the Editor's"
    );
    assert_eq!(seen.len(), steps.len() - passes(steps, "Editor"));
    assert_eq!(passes(seen, "Editor"), 0);
    assert_eq!(passes(seen, "Nixon"), passes(steps, "Nixon"));
    assert!(seen.iter().all(|s| s["table"]["seat"] == "Nixon"
        && s["table"]["hands"].is_null()
        && s["table"]["whole"] == false));
    let body = serde_json::json!({ "text": text, "view": "everyone" });
    let (status, _) = srv.json("POST", "/api/replay", Some(body));
    assert_eq!(status, 400);

    let (status, v) = srv.json(
        "POST",
        "/api/replay",
        Some(serde_json::json!({ "text": "GameLog(version: 1,", "name": "bad.ron" })),
    );
    assert_eq!(status, 422);
    assert!(error_of(&v).starts_with("bad.ron:"), "{v}");
    let (status, v) = srv.json("POST", "/api/replay", Some(serde_json::json!({})));
    assert_eq!(status, 400);
    assert!(error_of(&v).contains("either `text`"));
    let (status, _) = srv.call("POST", "/api/replay", Some("not json"));
    assert_eq!(status, 400);
}

#[test]
fn no_listed_file_is_opened_outside_the_data_folder() {
    let data = data_copy("paths");
    std::fs::create_dir_all(data.join("logs")).unwrap();
    std::fs::write(data.join("logs/one.ron"), common::logged_game(3).0).unwrap();
    let srv = Server::start(Some(&data));
    let (status, v) = srv.json("GET", "/api/logs", None);
    assert_eq!(status, 200);
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["name"] == "one.ron" && l["folder"] == "data"));
    let (status, _) = srv.json(
        "POST",
        "/api/replay",
        Some(serde_json::json!({ "log": { "folder": "data", "name": "one.ron" } })),
    );
    assert_eq!(status, 200);
    for name in ["../cards/game.ron", "../../../etc/passwd", "/etc/passwd"] {
        let (status, v) = srv.json(
            "POST",
            "/api/replay",
            Some(serde_json::json!({ "log": { "folder": "data", "name": name } })),
        );
        assert_eq!(status, 403, "{name}: {v}");
        let (status, v) = srv.json(
            "POST",
            "/api/puzzles/attempt",
            Some(serde_json::json!({ "file": name })),
        );
        assert_eq!(status, 403, "{name}: {v}");
    }
    // An uploaded scenario naming a variant outside the folder.
    let outside_folder = TempFolder::new("wg-outside");
    let outside = outside_folder.join("outside.ron");
    std::fs::write(&outside, "Variant(name: \"x\")").unwrap();
    for named in [
        "../../../outside.ron".to_string(),
        outside.display().to_string(),
    ] {
        let text = format!(
            "Scenario(variant: {named:?}, seed: 1, puzzle: Some((side: Editor, wins: true)))"
        );
        let (status, v) = srv.json(
            "POST",
            "/api/puzzles/attempt",
            Some(serde_json::json!({ "text": text })),
        );
        assert_eq!(status, 403, "{named}: {v}");
        assert!(error_of(&v).contains("outside the data folder"));
    }
}

/// The server keeps a bounded number of attempts at once; the page ends
/// the one the player leaves, so going through the whole list of puzzles,
/// one after the other, is never refused.
#[test]
fn a_player_going_through_more_puzzles_than_the_server_keeps_is_never_refused() {
    let srv = Server::start(None);
    let mut last = String::new();
    for n in 0..70 {
        let (status, v) = srv.json(
            "POST",
            "/api/puzzles/attempt",
            Some(serde_json::json!({ "file": "02_follow_the_money.ron" })),
        );
        assert_eq!(status, 200, "attempt {n}: {v}");
        last = v["id"].as_str().unwrap().to_string();
        let (status, body) = srv.call("DELETE", &format!("/api/puzzles/attempt/{last}"), None);
        assert_eq!(status, 204, "attempt {n} ended: {body}");
    }
    // An ended attempt is gone.
    let (status, _) = srv.json("GET", &format!("/api/puzzles/attempt/{last}"), None);
    assert_eq!(status, 404);
    let (status, _) = srv.json("DELETE", &format!("/api/puzzles/attempt/{last}"), None);
    assert_eq!(status, 404);
}

#[test]
fn a_puzzle_is_attempted_and_a_bad_move_leaves_it_unchanged() {
    let srv = Server::start(None);
    let (status, v) = srv.json("GET", "/api/puzzles", None);
    assert_eq!(status, 200);
    assert!(v.as_array().unwrap().len() >= 10);
    let (status, v) = srv.json(
        "POST",
        "/api/puzzles/attempt",
        Some(serde_json::json!({ "file": "02_follow_the_money.ron" })),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["full_information"], true);
    assert!(
        v["solution"].is_null(),
        "the solution is hidden until asked for"
    );
    // The puzzle plays on the 2025 board (a variant): its own board is sent,
    // and every token on the table lies on one of its spaces.
    let spaces: Vec<&str> = v["game"]["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    let tokens = v["table"]["board"].as_array().unwrap();
    assert!(!tokens.is_empty());
    for t in tokens {
        assert!(spaces.contains(&t["space"].as_str().unwrap()), "{t}");
    }
    let id = v["id"].as_str().unwrap().to_string();
    let options = v["options"].as_array().unwrap().len();
    assert!(options > 1);
    let (status, e) = srv.json(
        "POST",
        &format!("/api/puzzles/attempt/{id}/choose"),
        Some(serde_json::json!({ "index": 999 })),
    );
    assert_eq!(status, 400);
    assert!(error_of(&e).contains("no option 999"));
    let (status, e) = srv.json(
        "POST",
        &format!("/api/puzzles/attempt/{id}/choose"),
        Some(serde_json::json!({ "notation": "fly away" })),
    );
    assert_eq!(status, 400, "{e}");
    let (_, again) = srv.json("GET", &format!("/api/puzzles/attempt/{id}"), None);
    assert_eq!(again["options"].as_array().unwrap().len(), options);
    assert_eq!(again["moves"].as_array().unwrap().len(), 0);
    let (status, h) = srv.json("POST", &format!("/api/puzzles/attempt/{id}/hint"), None);
    assert_eq!(status, 200);
    assert!(h["hint"].as_str().unwrap().starts_with("Hint: "));
    let (_, r) = srv.json("POST", &format!("/api/puzzles/attempt/{id}/reveal"), None);
    assert!(!r["solution"]["moves"].as_array().unwrap().is_empty());
    let (status, _) = srv.json("GET", "/api/puzzles/attempt/nope", None);
    assert_eq!(status, 404);
    let (status, v) = srv.json(
        "POST",
        "/api/puzzles/attempt",
        Some(serde_json::json!({ "text": "Scenario(seed: 1)" })),
    );
    assert_eq!(status, 422);
    assert!(error_of(&v).contains("not a puzzle"));
}

fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_data_edit_reloads_and_a_broken_file_shows_its_problem_with_the_line() {
    let data = data_copy("live");
    let srv = Server::start(Some(&data));
    let file = data.join("cards/editor/42_follow_the_money.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace("\"Follow the money!\"", "\"Follow the cash!\""),
    )
    .unwrap();
    wait_for("the new card name", || {
        let (_, v) = srv.json("GET", "/api/cards", None);
        v["cards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "Follow the cash!")
    });
    let game = data.join("cards/game.ron");
    let good = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        good.replacen("hand_size_with_initiative", "hand_size_with_initiativ", 1),
    )
    .unwrap();
    let mut problem = serde_json::Value::Null;
    wait_for("the problem", || {
        let (_, v) = srv.json("GET", "/api/live/status", None);
        problem = v["problems"][0].clone();
        !problem.is_null()
    });
    assert!(
        problem["path"].as_str().unwrap().ends_with("game.ron"),
        "{problem}"
    );
    assert!(problem["line"].as_u64().unwrap() > 0);
    assert!(problem["source_line"]
        .as_str()
        .unwrap()
        .contains("hand_size_with_initiativ"));
    // The last good rules stay in force.
    let (_, v) = srv.json("GET", "/api/cards", None);
    assert!(v["cards"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["name"] == "Follow the cash!"));
    std::fs::write(&game, good).unwrap();
    wait_for("the problem to clear", || {
        let (_, v) = srv.json("GET", "/api/live/status", None);
        v["problems"].as_array().unwrap().is_empty()
    });
}

/// The value of Gordon Liddy the Cards page shows.
fn liddy_value(srv: &Server) -> serde_json::Value {
    let (_, v) = srv.json("GET", "/api/cards", None);
    v["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "nixon.gordon_liddy")
        .map(|c| c["value"].clone())
        .unwrap_or_default()
}

/// The workbench saves a file with problems; the studio opened again on
/// that folder starts (every problem lies in a card or script file the
/// workbench opens), lists the problems, deals new games with the shipped
/// game until the folder loads, and loads it once the file is mended.
#[test]
fn a_folder_saved_broken_opens_the_studio_again_to_mend_it() {
    let data = data_copy("saved_broken");
    let file = data.join("cards/nixon/10_gordon_liddy.ron");
    let good = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, good.replacen("value: 3,", "value: 37,", 1)).unwrap();
    let srv = Server::start(Some(&data));
    let mut status = serde_json::Value::Null;
    wait_for("the problem", || {
        (_, status) = srv.json("GET", "/api/live/status", None);
        !status["problems"][0].is_null()
    });
    assert_eq!(status["stand_in"], true, "{status}");
    let problem = &status["problems"][0];
    assert!(
        problem["path"]
            .as_str()
            .unwrap()
            .ends_with("10_gordon_liddy.ron"),
        "{problem}"
    );
    assert!(
        problem["message"].as_str().unwrap().contains("37"),
        "{problem}"
    );
    // The shipped game stands in: Liddy's value is the shipped 3, and a
    // new game is dealt.
    assert_eq!(liddy_value(&srv), 3);
    let (code, v) = srv.json(
        "POST",
        "/api/games",
        Some(serde_json::json!({ "mode": "hotseat" })),
    );
    assert_eq!(code, 201, "{v}");
    // Mended (to another value than the shipped one): the folder loads.
    std::fs::write(&file, good.replacen("value: 3,", "value: 4,", 1)).unwrap();
    wait_for("the folder to load", || {
        (_, status) = srv.json("GET", "/api/live/status", None);
        status["problems"].as_array().unwrap().is_empty()
    });
    assert_eq!(status["stand_in"], false, "{status}");
    assert_eq!(liddy_value(&srv), 4);
}

#[test]
fn a_lab_run_streams_progress_then_its_result_and_bad_runs_are_refused() {
    let srv = Server::start(None);
    for (body, says) in [
        (serde_json::json!({ "games": 0 }), "1 to"),
        (serde_json::json!({ "games": 1_000_000 }), "1 to"),
        (
            serde_json::json!({ "games": 10, "editor": "oracle" }),
            "unknown agent",
        ),
        (
            serde_json::json!({ "games": 10, "against": "nope.ron" }),
            "nope.ron",
        ),
        (
            serde_json::json!({ "games": 10, "against": "../../etc/passwd" }),
            "plain file name",
        ),
    ] {
        let (status, v) = srv.json("POST", "/api/lab", Some(body.clone()));
        assert!((400..500).contains(&status), "{body}: {status} {v}");
        assert!(error_of(&v).contains(says), "{body}: {v}");
    }
    let (status, v) = srv.json("POST", "/api/lab", Some(serde_json::json!({ "games": 30, "seed": 4, "against": "shipped", "variant": "no_gambit.ron" })));
    assert_eq!(status, 200, "{v}");
    let id = v["id"].as_str().unwrap();
    let (status, stream) = srv.call("GET", &format!("/api/lab/{id}/events"), None);
    assert_eq!(status, 200);
    assert!(stream.contains("event: result"), "{stream}");
    let (_, v) = srv.json("GET", &format!("/api/lab/{id}"), None);
    let r = &v["result"];
    assert_eq!(r["games"], 30);
    assert_eq!(r["other"]["games"], 30);
    assert!(r["chart"].as_str().unwrap().starts_with("<svg"));
    assert!(!r["cards"].as_array().unwrap().is_empty());

    let (_, v) = srv.json(
        "POST",
        "/api/lab",
        Some(serde_json::json!({ "games": 20000 })),
    );
    let id = v["id"].as_str().unwrap();
    let (status, _) = srv.json("POST", &format!("/api/lab/{id}/cancel"), None);
    assert_eq!(status, 200);
    wait_for("the cancelled run", || {
        let (_, v) = srv.json("GET", &format!("/api/lab/{id}"), None);
        v["finished"] == true
    });
    let (_, v) = srv.json("GET", &format!("/api/lab/{id}"), None);
    assert_eq!(v["result"]["cancelled"], true);
    assert!(v["result"]["games"].as_u64().unwrap() < 20000);
}
