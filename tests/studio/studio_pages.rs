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

/// Problem left by the lab: a run nobody watched kept playing, and two
/// forgotten runs held both slots and refused everyone else's. A run no
/// page has listened to or asked after for 10 s is cancelled (its figures
/// those of its first games, its status `unwatched`) and its slot is free
/// again; a run a page keeps alive (`POST …/keep` every 2 s) plays on.
#[test]
fn a_lab_run_nobody_watches_is_cancelled_and_frees_its_slot() {
    let srv = Server::start(None);
    // Long runs: searching agents' games take a while each (some 3 a
    // second here, so 200 take over a minute).
    let long = serde_json::json!({ "games": 200, "editor": "ismcts:2000", "nixon": "ismcts:2000" });
    // A run's status without its result's chart and table.
    let lab_status = |id: &str| {
        let (_, mut v) = srv.json("GET", &format!("/api/lab/{id}"), None);
        if let Some(r) = v.get_mut("result").and_then(|r| r.as_object_mut()) {
            r.retain(|k, _| ["games", "asked", "cancelled"].contains(&k.as_str()));
        }
        v
    };
    let start = |body: &serde_json::Value| srv.json("POST", "/api/lab", Some(body.clone()));
    let (s1, forgotten) = start(&long);
    let (s2, kept) = start(&long);
    assert_eq!((s1, s2), (200, 200), "{forgotten} {kept}");
    let (forgotten, kept) = (
        forgotten["id"].as_str().unwrap().to_string(),
        kept["id"].as_str().unwrap().to_string(),
    );
    // Both slots are taken.
    let (status, v) = start(&serde_json::json!({ "games": 10 }));
    assert_eq!(status, 503, "{v}");
    // Only one of them is watched, for 14 s.
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(14) {
        let (status, v) = srv.json("POST", &format!("/api/lab/{kept}/keep"), None);
        assert_eq!(status, 200, "{v}");
        std::thread::sleep(Duration::from_secs(2));
    }
    let v = lab_status(&forgotten);
    assert!(
        v["unwatched"] == true && (v["cancelling"] == true || v["finished"] == true),
        "the run nobody watched for 14 s plays on: {v}"
    );
    wait_for("the forgotten run to stop", || {
        lab_status(&forgotten)["finished"] == true
    });
    let v = lab_status(&forgotten);
    assert_eq!(v["result"]["cancelled"], true, "{v}");
    assert!(v["result"]["games"].as_u64().unwrap() < 200, "{v}");
    assert_eq!(v["cancelling"], false, "{v}");
    let v = lab_status(&kept);
    assert_eq!(v["unwatched"], false, "the watched run was cancelled: {v}");
    assert_eq!(v["finished"], false, "{v}");
    // Its slot is free: another run starts.
    let (status, v) = start(&serde_json::json!({ "games": 10 }));
    assert_eq!(status, 200, "{v}");
    let (status, v) = srv.json("POST", &format!("/api/lab/{kept}/cancel"), None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["cancelling"], true, "{v}");
}

/// Problem left by the JSON API: seeds were JSON numbers, and a page's
/// JavaScript holds whole numbers exactly only up to 2^53, so a larger
/// seed came back rounded (a game that could not be dealt again); and a
/// bad seed or count was refused in serde's words ("invalid type: floating
/// point"). Seeds go out as decimal strings and come in as strings or
/// numbers; a bad one gets a 400 that says what is allowed.
#[test]
fn seeds_are_decimal_strings_and_bad_seeds_and_counts_are_refused_in_words() {
    let srv = Server::start(None);
    let big = "18446744073709551557";
    let (status, v) = srv.json(
        "POST",
        "/api/games",
        Some(serde_json::json!({ "mode": "hotseat", "seed": big })),
    );
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["seed"], big, "{v}");
    let seat = v["seats"]["editor"].as_str().unwrap().to_string();
    let r = srv.client.get(
        &format!("/api/games/{}", v["game"].as_str().unwrap()),
        Some(&seat),
    );
    assert_eq!(r.json()["seed"], big, "{}", r.body);
    // A number still works (older pages and scripts).
    let (status, v) = srv.json(
        "POST",
        "/api/games",
        Some(serde_json::json!({ "mode": "hotseat", "seed": 12 })),
    );
    assert_eq!((status, &v["seed"]), (201, &serde_json::json!("12")), "{v}");
    for bad in [
        serde_json::json!(1.5),
        serde_json::json!(-3),
        serde_json::json!("12abc"),
        serde_json::json!("18446744073709551616"),
        serde_json::json!(true),
    ] {
        let (status, v) = srv.json(
            "POST",
            "/api/games",
            Some(serde_json::json!({ "mode": "hotseat", "seed": bad })),
        );
        assert_eq!(status, 400, "{bad}: {v}");
        assert!(
            error_of(&v).contains("a seed is a whole number from 0 to 18446744073709551615"),
            "{bad}: {v}"
        );
        let (status, v) = srv.json(
            "POST",
            "/api/lab",
            Some(serde_json::json!({ "games": 10, "seed": bad })),
        );
        assert_eq!(status, 400, "{bad}: {v}");
        assert!(
            error_of(&v).contains("a seed is a whole number"),
            "{bad}: {v}"
        );
    }
    // A lab run's seed, as sent, in its result.
    let (status, v) = srv.json(
        "POST",
        "/api/lab",
        Some(serde_json::json!({ "games": 4, "seed": big })),
    );
    assert_eq!(status, 200, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    wait_for("the run", || {
        srv.json("GET", &format!("/api/lab/{id}"), None).1["finished"] == true
    });
    let (_, v) = srv.json("GET", &format!("/api/lab/{id}"), None);
    assert_eq!(v["result"]["seed"], big, "{v}");
    // Bad budgets: a count of games that is no whole number, or out of range.
    for (games, says) in [
        (serde_json::json!(2.5), "games is a whole number of games"),
        (
            serde_json::json!("lots"),
            "games is a whole number of games",
        ),
        (serde_json::json!(-1), "games is a whole number of games"),
        (serde_json::json!(0), "1 to 20000"),
    ] {
        let (status, v) = srv.json(
            "POST",
            "/api/lab",
            Some(serde_json::json!({ "games": games })),
        );
        assert_eq!(status, 400, "{games}: {v}");
        assert!(error_of(&v).contains(says), "{games}: {v}");
    }
}

/// Problem left by the studio: a position saved from Play in a studio
/// started with `--data` names that folder by its absolute path, and the
/// studio refused to open it as lying "outside the data folder"; the
/// Puzzles page sent a saved position to the Play page, which could not
/// open one. Play now plays on from a saved position (`position` in `POST
/// /api/games`): the same studio reopens the file at its position, with
/// the folder's rules; a studio that cannot (on the shipped game) says
/// what to do instead.
#[test]
fn a_position_saved_with_data_reopens_on_the_play_page() {
    let data = data_copy("saved_position");
    let srv = Server::start(Some(&data));
    let (status, v) = srv.json(
        "POST",
        "/api/games",
        Some(serde_json::json!({ "mode": "hotseat", "seed": 5 })),
    );
    assert_eq!(status, 201, "{v}");
    let (game, seat) = (
        v["game"].as_str().unwrap().to_string(),
        v["seats"]["editor"].as_str().unwrap().to_string(),
    );
    let view = srv
        .client
        .get(&format!("/api/games/{game}"), Some(&seat))
        .json();
    let saved = srv
        .client
        .get(&format!("/api/games/{game}/scenario"), Some(&seat));
    assert_eq!(saved.status, 200, "{}", saved.body);
    let text = saved.body;
    let folder = data.canonicalize().unwrap().display().to_string();
    assert!(
        text.contains(&folder) || text.contains(&data.display().to_string()),
        "the saved file names its data folder: {text}"
    );
    let upload =
        serde_json::json!({ "mode": "hotseat", "position": { "text": text, "name": "saved.ron" } });
    let (status, v) = srv.json("POST", "/api/games", Some(upload.clone()));
    assert_eq!(status, 201, "{v}");
    assert!(v["seed"].is_null(), "a position has no seed to show: {v}");
    let again = srv
        .client
        .get(
            &format!("/api/games/{}", v["game"].as_str().unwrap()),
            v["seats"]["editor"].as_str(),
        )
        .json();
    for field in [
        "hand", "round", "phase", "track", "board", "discards", "bag",
    ] {
        assert_eq!(again[field], view[field], "{field} differs");
    }
    // Against an agent too.
    let mut against = upload.clone();
    against["mode"] = serde_json::json!("nixon");
    against["ai"] = serde_json::json!("random");
    let (status, v) = srv.json("POST", "/api/games", Some(against));
    assert_eq!(status, 201, "{v}");
    // A position and a seed: refused, saying why.
    let mut both = upload.clone();
    both["seed"] = serde_json::json!("3");
    let (status, v) = srv.json("POST", "/api/games", Some(both));
    assert_eq!(status, 400, "{v}");
    // The Puzzles page sends it to the Play page, which opens it.
    let (status, v) = srv.json(
        "POST",
        "/api/puzzles/attempt",
        Some(serde_json::json!({ "text": upload["position"]["text"], "name": "saved.ron" })),
    );
    assert_eq!(status, 422, "{v}");
    assert!(error_of(&v).contains("Play page"), "{v}");
    // A studio on the shipped game cannot play on that folder's rules: it
    // says how to open the file instead.
    let shipped = Server::start(None);
    let (status, v) = shipped.json("POST", "/api/games", Some(upload));
    assert_eq!(status, 403, "{v}");
    assert!(
        error_of(&v).contains("watergate serve --data")
            && error_of(&v).contains("watergate play --scenario"),
        "{v}"
    );
}

/// Problem left by the studio: a data folder as `watergate export` writes
/// it has no `scenarios/`, and the Puzzles list and the lab's variants were
/// then empty. The shipped puzzles and variants stand in, played on the
/// folder's data, and the pages are told so (`scenarios_note`); a folder
/// with its own scenarios/ lists its own, with no note.
#[test]
fn a_data_folder_without_scenarios_lists_the_shipped_puzzles_and_says_so() {
    let data = TempFolder::new("wg-studio-exported");
    watergate::data::DataSet::embedded()
        .write_to(&data)
        .unwrap();
    assert!(!data.join("scenarios").exists());
    let srv = Server::start(Some(&data));
    let (status, list) = srv.json("GET", "/api/puzzles", None);
    assert_eq!(status, 200, "{list}");
    let files: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["file"].as_str())
        .collect();
    assert!(files.len() >= 10, "{list}");
    assert!(files.contains(&"02_follow_the_money.ron"), "{list}");
    let (status, v) = srv.json(
        "POST",
        "/api/puzzles/attempt",
        Some(serde_json::json!({ "file": "02_follow_the_money.ron" })),
    );
    assert_eq!(status, 200, "{v}");
    let (_, mined) = srv.json("GET", "/api/puzzles?set=mined", None);
    assert!(!mined.as_array().unwrap().is_empty(), "{mined}");
    let (_, lab) = srv.json("GET", "/api/lab/variants", None);
    let variants = lab["variants"].as_array().unwrap();
    assert!(!variants.is_empty(), "{lab}");
    assert!(
        lab["scenarios_note"]
            .as_str()
            .is_some_and(|n| n.contains("no scenarios/") && n.contains("shipped")),
        "{lab}"
    );
    let (_, game) = srv.json("GET", "/api/game", None);
    assert_eq!(game["scenarios_note"], lab["scenarios_note"], "{game}");
    // A shipped variant runs in the lab, on the folder's data.
    let (status, v) = srv.json(
        "POST",
        "/api/lab",
        Some(serde_json::json!({ "games": 4, "variant": variants[0], "against": "base" })),
    );
    assert_eq!(status, 200, "{v}");

    // A folder with its own scenarios/: its own lists, no note.
    let own = data_copy("own_scenarios");
    let srv = Server::start(Some(&own));
    let (_, game) = srv.json("GET", "/api/game", None);
    assert!(game.get("scenarios_note").is_none(), "{game}");
    let (_, lab) = srv.json("GET", "/api/lab/variants", None);
    assert!(lab["scenarios_note"].is_null(), "{lab}");
}
