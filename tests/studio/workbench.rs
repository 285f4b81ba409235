//! The designer's workbench (`#/workbench`, `/api/workbench/…`): over HTTP,
//! writes stay inside the data folder and behind the guard, a studio
//! without `--data` is read-only and says how to start one that writes, a
//! save changes only what was edited, a file with problems is written but
//! never reaches a game, undo takes an edit back, and the lab's caps hold
//! for runs and comparisons alike, and `watergate check`'s warnings come
//! beside the problems without keeping a game from loading. In a real
//! browser: an edit shows its problem (or its warning) at its line, a fixed
//! edit reaches a new game, and a comparison completes with its interval.

use crate::common;

use common::browser::{run, until, wait_css};
use common::http::{Client, Response};
use common::server::Server;
use common::temp::TempFolder;
use fantoccini::{key::Key, Locator};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const GAME: &str = "cards/game.ron";
const MISSPELT: &str = "hand_size_with_initiativ";

/// A copy of the shipped data (cards/, scripts/) in `base/data`, with
/// `base` left for files outside the data folder.
/// Both are removed when the test is done with `base` (dropped).
fn data_copy(name: &str) -> (TempFolder, PathBuf) {
    let base = TempFolder::new(&format!("wg-workbench-{name}"));
    let data = base.join("data");
    watergate::data::DataSet::embedded()
        .write_to(&data)
        .expect("the data copy is written");
    (base, data)
}

fn error_of(r: &Response) -> String {
    r.json()["error"].as_str().unwrap_or_default().to_string()
}

fn post(c: &Client, path: &str, body: &Value) -> Response {
    c.post(path, None, body)
}

/// The 1-based line of the first line of `text` holding `what`.
fn line_of(text: &str, what: &str) -> usize {
    text.lines()
        .position(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no `{what}` in the text"))
        + 1
}

/// The number of cards the Editor (first with the initiative) is dealt in a
/// new hotseat game.
fn editor_hand_in_a_new_game(c: &Client) -> u64 {
    let r = post(c, "/api/games", &json!({ "mode": "hotseat", "seed": 3 }));
    assert_eq!(r.status, 201, "{}", r.body);
    let g = r.json();
    let id = g["game"].as_str().unwrap();
    let v = c.get(&format!("/api/games/{id}"), g["seats"]["editor"].as_str());
    assert_eq!(v.status, 200, "{}", v.body);
    v.json()["hand_sizes"]["editor"]
        .as_u64()
        .expect("hand sizes")
}

fn wait_for(what: &str, secs: u64, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn writes_outside_the_data_folder_or_from_another_site_are_refused() {
    let (base, data) = data_copy("outside");
    let outside = base.join("outside.ron");
    std::fs::write(&outside, "secret").unwrap();
    let d = data.display().to_string();
    let server = Server::start(&["--data", &d]);
    let c = Client::new(server.port);
    // Made after the start: the game read at start does not hold it.
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, data.join("cards/nixon/99_link.ron")).unwrap();
    let abs = outside.display().to_string();
    let mut cases = vec![
        ("../outside.ron", 403, "climbs out"),
        ("cards/../../outside.ron", 403, "climbs out"),
        (abs.as_str(), 403, "absolute"),
        ("scenarios/variants/x.ron", 403, "not a file of the game"),
        ("cards/nixon/98_new_card.ron", 404, "no file"),
    ];
    #[cfg(unix)]
    cases.push(("cards/nixon/99_link.ron", 403, "outside the data folder"));
    for (path, status, says) in cases {
        let r = post(
            &c,
            "/api/workbench/save",
            &json!({ "path": path, "text": "written" }),
        );
        assert_eq!(r.status, status, "{path}: {}", r.body);
        assert!(error_of(&r).contains(says), "{path}: {}", r.body);
        let r = c.get(
            &format!("/api/workbench/file?path={}", path.replace('/', "%2F")),
            None,
        );
        assert!((400..500).contains(&r.status), "{path}: {}", r.body);
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "secret");
    assert!(!data.join("cards/nixon/98_new_card.ron").exists());
    assert!(!base.join("written").exists());

    // A file inside, but asked for by another site or through another name.
    let good = std::fs::read_to_string(data.join(GAME)).unwrap();
    let body = json!({ "path": GAME, "text": "changed" }).to_string();
    for (header, value, says) in [
        ("Origin", "http://evil.example", "origin"),
        ("Host", "evil.example", "Host"),
    ] {
        let r = c.send(
            "POST",
            "/api/workbench/save",
            &[(header, value)],
            body.as_bytes(),
        );
        assert_eq!(r.status, 403, "{header}: {}", r.body);
        assert!(error_of(&r).contains(says), "{header}: {}", r.body);
    }
    assert_eq!(std::fs::read_to_string(data.join(GAME)).unwrap(), good);
    // No temporary file is left beside the data either.
    let stray: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("workbench"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

#[test]
fn without_data_the_workbench_is_read_only_and_says_how_to_start_it() {
    let server = Server::start(&[]);
    let c = Client::new(server.port);
    let v = c.get("/api/workbench", None).json();
    assert_eq!(v["writable"], false);
    let why = v["read_only"].as_str().unwrap();
    assert!(why.contains("watergate serve --data"), "{why}");
    assert!(v["files"].as_array().unwrap().len() > 40, "{v}");
    // Files open and check, from the shipped copy.
    let r = c.get("/api/workbench/file?path=cards%2Fgame.ron", None);
    assert_eq!(r.status, 200, "{}", r.body);
    let f = r.json();
    assert_eq!(f["writable"], false);
    let text = f["text"].as_str().unwrap().to_string();
    assert!(text.contains("hand_size_with_initiative"));
    let r = post(
        &c,
        "/api/workbench/check",
        &json!({ "path": GAME, "text": text.replacen("hand_size_with_initiative", MISSPELT, 1) }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.json()["problems"].as_array().unwrap().is_empty());
    // Nothing writes.
    for (path, body) in [
        ("/api/workbench/save", json!({ "path": GAME, "text": text })),
        ("/api/workbench/undo", json!({})),
        ("/api/workbench/compare", json!({ "games": 2 })),
    ] {
        let r = post(&c, path, &body);
        assert_eq!(r.status, 403, "{path}: {}", r.body);
        assert!(
            error_of(&r).contains("watergate serve --data"),
            "{path}: {}",
            r.body
        );
    }
    let r = c.get("/api/workbench/diff", None);
    assert_eq!(r.status, 403, "{}", r.body);
}

#[test]
fn a_form_edit_is_saved_keeping_every_other_character_and_undo_takes_it_back() {
    let (_folder, data) = data_copy("save");
    let d = data.display().to_string();
    let server = Server::start(&["--data", &d]);
    let c = Client::new(server.port);
    let before = std::fs::read_to_string(data.join(GAME)).unwrap();
    let f = c
        .get("/api/workbench/file?path=cards%2Fgame.ron", None)
        .json();
    assert_eq!(f["text"].as_str().unwrap(), before);
    assert!(f["problems"].as_array().unwrap().is_empty(), "{f}");
    let field = f["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["path"] == "hand_size_with_initiative")
        .expect("the hand size is a form field")
        .clone();
    assert_eq!(field["value"], "5");
    assert_eq!(field["line"], line_of(&before, "hand_size_with_initiative"));
    let r = post(
        &c,
        "/api/workbench/field",
        &json!({ "path": GAME, "text": before, "field": "hand_size_with_initiative", "value": "6" }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let edited = r.json()["text"].as_str().unwrap().to_string();
    // One line differs, and in it only the value: its comment stays.
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(edited.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(
        changed,
        [(
            "    hand_size_with_initiative: 5,    // R4.1",
            "    hand_size_with_initiative: 6,    // R4.1"
        )]
    );
    assert_eq!(before.lines().count(), edited.lines().count());
    let bad = post(
        &c,
        "/api/workbench/field",
        &json!({ "path": GAME, "text": before, "field": "hand_size_with_initiative", "value": "six" }),
    );
    assert_eq!(bad.status, 400);
    assert!(error_of(&bad).contains("whole number"), "{}", bad.body);

    assert_eq!(editor_hand_in_a_new_game(&c), 5);
    let r = post(
        &c,
        "/api/workbench/save",
        &json!({ "path": GAME, "text": edited, "base": f["version"] }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let saved = r.json();
    assert_eq!(saved["loaded"], true, "{saved}");
    assert_eq!(std::fs::read_to_string(data.join(GAME)).unwrap(), edited);
    assert_eq!(editor_hand_in_a_new_game(&c), 6);
    // The page's old version no longer matches the file.
    let r = post(
        &c,
        "/api/workbench/save",
        &json!({ "path": GAME, "text": before, "base": f["version"] }),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(error_of(&r).contains("changed on disk"), "{}", r.body);

    let h = c.get("/api/workbench/history", None).json();
    assert_eq!(h["edits"].as_array().unwrap().len(), 1, "{h}");
    assert_eq!(h["edits"][0]["path"], GAME);
    assert_eq!(
        h["edits"][0]["first_line"],
        line_of(&before, "hand_size_with_initiative")
    );
    let r = post(&c, "/api/workbench/undo", &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["text"].as_str().unwrap(), before);
    assert_eq!(std::fs::read_to_string(data.join(GAME)).unwrap(), before);
    assert_eq!(r.json()["history"]["edits"][0]["undone"], true);
    assert_eq!(editor_hand_in_a_new_game(&c), 5);
    let r = post(&c, "/api/workbench/undo", &json!({}));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(error_of(&r).contains("no edit"), "{}", r.body);

    // An edit made outside the studio since is not overwritten by undo.
    post(
        &c,
        "/api/workbench/save",
        &json!({ "path": GAME, "text": edited }),
    );
    std::fs::write(data.join(GAME), before.replace("R4.1", "R4.1 (outside)")).unwrap();
    let r = post(&c, "/api/workbench/undo", &json!({}));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(
        std::fs::read_to_string(data.join(GAME))
            .unwrap()
            .contains("(outside)"),
        "undo overwrote a newer text"
    );

    // The diff is `watergate diff`'s.
    std::fs::write(data.join(GAME), &edited).unwrap();
    let v = c.get("/api/workbench/diff?against=shipped", None).json();
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .contains("hand_size_with_initiative: 5 → 6"),
        "{v}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(["diff", "--data", &d])
        .output()
        .unwrap();
    assert_eq!(
        v["text"].as_str().unwrap(),
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_broken_file_is_saved_with_its_problems_at_their_lines_but_never_reaches_a_game() {
    let (_folder, data) = data_copy("broken");
    let d = data.display().to_string();
    let server = Server::start(&["--data", &d]);
    let c = Client::new(server.port);
    let good = std::fs::read_to_string(data.join(GAME)).unwrap();
    let broken = good.replacen("hand_size_with_initiative", MISSPELT, 1);
    let r = post(
        &c,
        "/api/workbench/check",
        &json!({ "path": GAME, "text": broken }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let p = r.json()["problems"].as_array().unwrap().clone();
    let mine: Vec<&Value> = p.iter().filter(|x| x["file"] == GAME).collect();
    assert!(!mine.is_empty(), "{p:?}");
    assert_eq!(mine[0]["line"], line_of(&broken, MISSPELT), "{p:?}");
    assert!(
        mine[0]["message"].as_str().unwrap().contains(MISSPELT),
        "{p:?}"
    );
    // A check writes nothing.
    assert_eq!(std::fs::read_to_string(data.join(GAME)).unwrap(), good);

    // A script's syntax error stands at its line too.
    let script = "scripts/nixon/gordon_liddy.rhai";
    let text = std::fs::read_to_string(data.join(script)).unwrap();
    let bad_script = format!("{text}\nlet = ;\n");
    let r = post(
        &c,
        "/api/workbench/check",
        &json!({ "path": script, "text": bad_script }),
    );
    let p = r.json()["problems"].as_array().unwrap().clone();
    let at = p
        .iter()
        .find(|x| x["file"] == script)
        .unwrap_or_else(|| panic!("no problem in the script: {p:?}"));
    assert_eq!(at["line"], line_of(&bad_script, "let = ;"), "{p:?}");

    let before = c.get("/api/live/status", None).json()["fingerprint"].clone();
    let r = post(
        &c,
        "/api/workbench/save",
        &json!({ "path": GAME, "text": broken }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["loaded"], false);
    assert_eq!(std::fs::read_to_string(data.join(GAME)).unwrap(), broken);
    let status = c.get("/api/live/status", None).json();
    assert_eq!(status["fingerprint"], before);
    assert!(!status["problems"].as_array().unwrap().is_empty());
    assert_eq!(editor_hand_in_a_new_game(&c), 5);
    // Nor does a comparison play it.
    let r = post(&c, "/api/workbench/compare", &json!({ "games": 2 }));
    assert_eq!(r.status, 422, "{}", r.body);
}

/// The Rose Mary Stretch's script, and its one option whose removal would
/// show the Editor the hidden colours of face-down evidence (R4.3).
const ROSE_MARY: &str = "scripts/editor/the_rose_mary_stretch.rhai";
const FACE_UP: &str = "face: \"up\", ";

#[test]
fn a_choice_that_shows_what_the_rules_hide_is_a_warning_and_the_game_still_loads() {
    let (_folder, data) = data_copy("warning");
    let d = data.display().to_string();
    let server = Server::start(&["--data", &d]);
    let c = Client::new(server.port);
    let good = std::fs::read_to_string(data.join(ROSE_MARY)).unwrap();
    let r = post(
        &c,
        "/api/workbench/check",
        &json!({ "path": ROSE_MARY, "text": good }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["problems"], json!([]), "{}", r.body);
    assert_eq!(r.json()["warnings"], json!([]), "{}", r.body);

    let leaky = good.replacen(FACE_UP, "", 1);
    assert_ne!(leaky, good);
    let r = post(
        &c,
        "/api/workbench/check",
        &json!({ "path": ROSE_MARY, "text": leaky }),
    );
    assert_eq!(r.json()["problems"], json!([]), "{}", r.body);
    let w = r.json()["warnings"].as_array().unwrap().clone();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0]["file"], ROSE_MARY, "{w:?}");
    assert_eq!(w[0]["line"], line_of(&leaky, "pin_track_evidence"), "{w:?}");
    let message = w[0]["message"].as_str().unwrap();
    assert!(
        message.contains("(R4.3)") && message.contains("The Rose Mary Stretch"),
        "{message}"
    );
    // Saved: the game loads with it, so new games use it, and the save
    // says so beside the warning.
    let before = c.get("/api/live/status", None).json()["fingerprint"].clone();
    let r = post(
        &c,
        "/api/workbench/save",
        &json!({ "path": ROSE_MARY, "text": leaky }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["loaded"], true, "{}", r.body);
    assert_eq!(r.json()["warnings"].as_array().unwrap().len(), 1);
    wait_for("the saved script in the live rules", 30, || {
        c.get("/api/live/status", None).json()["fingerprint"] != before
    });
    // Opened again, the file comes with its warning.
    let r = c.get(&format!("/api/workbench/file?path={ROSE_MARY}"), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["warnings"].as_array().unwrap().len(), 1);
}

#[test]
fn runs_and_comparisons_are_capped_per_run_and_at_once_and_say_so() {
    let (_folder, data) = data_copy("caps");
    let d = data.display().to_string();
    let server = Server::start(&["--data", &d]);
    let c = Client::new(server.port);
    // Nothing changed yet: nothing to compare.
    let r = post(
        &c,
        "/api/workbench/compare",
        &json!({ "games": 2, "editor": "random", "nixon": "random" }),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(error_of(&r).contains("unchanged"), "{}", r.body);
    let good = std::fs::read_to_string(data.join(GAME)).unwrap();
    let r = post(
        &c,
        "/api/workbench/save",
        &json!({ "path": GAME, "text": good.replacen("momentum_to_win: 5", "momentum_to_win: 4", 1) }),
    );
    assert_eq!(r.json()["loaded"], true, "{}", r.body);

    for (body, says) in [
        // The default agent searches: 200 games at most.
        (
            json!({ "games": 201 }),
            "1 to 200 games with a searching agent",
        ),
        (
            json!({ "games": 20_001, "editor": "random", "nixon": "random" }),
            "1 to 20000 games",
        ),
        (
            json!({ "games": 2, "editor": "ismcts:100000" }),
            "at most 2000 iterations",
        ),
        (
            json!({ "games": 2, "against": "yesterday" }),
            "`shipped` or `opened`",
        ),
    ] {
        let r = post(&c, "/api/workbench/compare", &body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(error_of(&r).contains(says), "{body}: {}", r.body);
    }
    let r = post(&c, "/api/lab", &json!({ "games": 20_001 }));
    assert!(error_of(&r).contains("1 to 20000 games"), "{}", r.body);

    // Two long runs at once, the most: a third run and a comparison wait.
    let ids: Vec<String> = (0..2)
        .map(|_| {
            let r = post(&c, "/api/lab", &json!({ "games": 20_000 }));
            assert_eq!(r.status, 200, "{}", r.body);
            r.json()["id"].as_str().unwrap().to_string()
        })
        .collect();
    for (path, body) in [
        ("/api/lab", json!({ "games": 10 })),
        (
            "/api/workbench/compare",
            json!({ "games": 2, "editor": "random", "nixon": "random" }),
        ),
    ] {
        let r = post(&c, path, &body);
        assert_eq!(r.status, 503, "{path}: {}", r.body);
        assert!(
            error_of(&r).contains("2 runs are in progress"),
            "{path}: {}",
            r.body
        );
    }
    for id in &ids {
        post(&c, &format!("/api/lab/{id}/cancel"), &json!({}));
    }
    wait_for("the cancelled runs", 120, || {
        ids.iter()
            .all(|id| c.get(&format!("/api/lab/{id}"), None).json()["finished"] == true)
    });
    // Then a comparison runs, and its result has its interval.
    let r = post(
        &c,
        "/api/workbench/compare",
        &json!({ "games": 20, "editor": "random", "nixon": "random" }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    wait_for("the comparison", 120, || {
        c.get(&format!("/api/lab/{id}"), None).json()["finished"] == true
    });
    let v = c.get(&format!("/api/lab/{id}"), None).json();
    let res = &v["result"];
    assert_eq!(res["against"], "the shipped game", "{v}");
    assert_eq!(res["other"]["games"], 20, "{v}");
    let d = &res["difference"];
    assert!(
        d["low"].as_f64().unwrap() <= d["estimate"].as_f64().unwrap()
            && d["estimate"].as_f64().unwrap() <= d["high"].as_f64().unwrap(),
        "{d}"
    );
}

// ---- in the browser ----

fn e<E: std::fmt::Display>(x: E) -> String {
    x.to_string()
}

use common::browser::shot;

async fn text_of(c: &fantoccini::Client, css: &str) -> Option<String> {
    c.find(Locator::Css(css)).await.ok()?.text().await.ok()
}

async fn value_of(c: &fantoccini::Client, css: &str) -> Result<String, String> {
    let v = c
        .execute(
            "return document.querySelector(arguments[0]).value;",
            vec![json!(css)],
        )
        .await
        .map_err(e)?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// Puts the caret of the code box at byte `at` of its text (ASCII here).
async fn caret(c: &fantoccini::Client, at: usize) -> Result<(), String> {
    c.execute(
        "const t = document.getElementById('wb-text'); t.focus(); t.setSelectionRange(arguments[0], arguments[0]);",
        vec![json!(at)],
    )
    .await
    .map(|_| ())
    .map_err(e)
}

/// Types `keys` into the code box with the caret at byte `at`.
async fn type_at(c: &fantoccini::Client, at: usize, keys: &str) -> Result<(), String> {
    caret(c, at).await?;
    c.active_element()
        .await
        .map_err(e)?
        .send_keys(keys)
        .await
        .map_err(e)
}

/// The workbench at `file`, once it has checked it.
async fn open(c: &fantoccini::Client, url: &str, file: &str) -> Result<(), String> {
    c.goto(&format!("{url}#/workbench/{file}"))
        .await
        .map_err(e)?;
    wait_css(c, "#wb-ok", 30).await.map(|_| ())
}

/// The lines the gutter marks with `mark`: `bad` (a problem) or `warn`.
async fn marked_lines(c: &fantoccini::Client, mark: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for el in c
        .find_all(Locator::Css(&format!("#wb-gutter .wb-ln.{mark}")))
        .await
        .map_err(e)?
    {
        out.push(el.attr("data-line").await.map_err(e)?.unwrap_or_default());
    }
    Ok(out)
}

/// HTTP from the test itself (the browser is for the page).
fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().expect("the request thread")
}

fn port_of(url: &str) -> u16 {
    url.trim_end_matches('/')
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("a port")
}

#[test]
fn an_edit_shows_its_problem_at_its_line_and_the_fixed_edit_reaches_a_new_game() {
    let (_folder, data) = data_copy("browser-edit");
    let d = data.display().to_string();
    run(
        "workbench_edit",
        &["--data", &d],
        move |c: fantoccini::Client, url: String| async move {
            let port = port_of(&url);
            let file = data.join(GAME);
            let good = std::fs::read_to_string(&file).map_err(e)?;
            open(&c, &url, GAME).await?;
            if value_of(&c, "#wb-text").await? != good {
                return Err("the code box does not hold the file".into());
            }
            let gutter = c
                .find_all(Locator::Css("#wb-gutter .wb-ln"))
                .await
                .map_err(e)?;
            if gutter.len() != good.split('\n').count() {
                return Err(format!(
                    "{} line numbers for {} lines",
                    gutter.len(),
                    good.split('\n').count()
                ));
            }
            // Typed: a backspace at the end of the field's name.
            let name = "hand_size_with_initiative";
            let at = good.find(name).ok_or("no hand size")? + name.len();
            type_at(&c, at, &Key::Backspace.to_string()).await?;
            let line = line_of(&good, name).to_string();
            let shown = until("the problem at its line", 30, || async {
                let p = text_of(&c, &format!(".wb-problem[data-line=\"{line}\"]")).await?;
                p.contains(MISSPELT).then_some(p)
            })
            .await?;
            if !shown.starts_with(&format!("line {line}:")) {
                return Err(format!("the problem reads {shown:?}"));
            }
            shot(&c, "workbench-problem").await?;
            let bad = marked_lines(&c, "bad").await?;
            if bad != [line.clone()] {
                return Err(format!("the gutter marks lines {bad:?}, not {line}"));
            }
            // Saved with its problem: written, but new games keep the rules.
            c.find(Locator::Css("#wb-save"))
                .await
                .map_err(e)?
                .click()
                .await
                .map_err(e)?;
            until("the save", 30, || async {
                let s = text_of(&c, "#wb-state").await?;
                s.contains("new games keep the last rules").then_some(())
            })
            .await?;
            let on_disk = std::fs::read_to_string(&file).map_err(e)?;
            if on_disk != good.replacen(name, MISSPELT, 1) {
                return Err("the broken text was not saved as typed".into());
            }
            let hand = blocking(move || editor_hand_in_a_new_game(&Client::new(port)));
            if hand != 5 {
                return Err(format!("a broken file reached a game: hand of {hand}"));
            }
            // Fixed in the text, then the hand size changed in the form.
            type_at(&c, at - 1, "e").await?;
            wait_css(&c, "#wb-ok", 30).await?;
            let input = wait_css(&c, "#wb-field-hand_size_with_initiative", 30).await?;
            input.clear().await.map_err(e)?;
            input.send_keys("6").await.map_err(e)?;
            input.send_keys(&Key::Tab.to_string()).await.map_err(e)?;
            until("the form's value in the text", 30, || async {
                value_of(&c, "#wb-text")
                    .await
                    .ok()
                    .filter(|t| t.contains("hand_size_with_initiative: 6,    // R4.1"))
            })
            .await?;
            wait_css(&c, "#wb-ok", 30).await?;
            c.find(Locator::Css("#wb-save"))
                .await
                .map_err(e)?
                .click()
                .await
                .map_err(e)?;
            until("the save", 30, || async {
                let s = text_of(&c, "#wb-state").await?;
                s.contains("new games use it").then_some(())
            })
            .await?;
            let on_disk = std::fs::read_to_string(&file).map_err(e)?;
            if on_disk
                != good.replacen(
                    "hand_size_with_initiative: 5,",
                    "hand_size_with_initiative: 6,",
                    1,
                )
            {
                return Err(format!(
                    "the saved file is not the original with one value changed:\n{on_disk}"
                ));
            }
            let hand = blocking(move || editor_hand_in_a_new_game(&Client::new(port)));
            if hand != 6 {
                return Err(format!(
                    "the fixed edit did not reach a new game: hand of {hand}"
                ));
            }
            // The session's edits, newest first, and the undo.
            let edits = c
                .find_all(Locator::Css("#wb-history li[data-edit]"))
                .await
                .map_err(e)?;
            if edits.len() != 2 {
                return Err(format!("{} edits in the history, not 2", edits.len()));
            }
            Ok(())
        },
    );
}

#[test]
fn an_edit_that_shows_hidden_colours_is_warned_of_at_its_line_and_the_game_still_loads() {
    let (_folder, data) = data_copy("browser-warning");
    let d = data.display().to_string();
    run(
        "workbench_warning",
        &["--data", &d],
        move |c: fantoccini::Client, url: String| async move {
            let good = std::fs::read_to_string(data.join(ROSE_MARY)).map_err(e)?;
            open(&c, &url, ROSE_MARY).await?;
            if c.find(Locator::Css(".wb-warning")).await.is_ok() {
                return Err("the shipped script is warned of".into());
            }
            // Typed: the `face: "up", ` option deleted, one backspace a character.
            let at = good.find(FACE_UP).ok_or("no face option")? + FACE_UP.len();
            let keys = Key::Backspace.to_string().repeat(FACE_UP.len());
            type_at(&c, at, &keys).await?;
            let line = line_of(&good, "pin_track_evidence").to_string();
            let shown = until("the warning at its line", 30, || async {
                let w = text_of(&c, &format!(".wb-warning[data-line=\"{line}\"]")).await?;
                w.contains("R4.3").then_some(w)
            })
            .await?;
            if !shown.starts_with(&format!("line {line}:")) {
                return Err(format!("the warning reads {shown:?}"));
            }
            // A warning, not a problem: the game loads with the text.
            wait_css(&c, "#wb-ok", 5).await?;
            if !marked_lines(&c, "bad").await?.is_empty() {
                return Err("a warning is marked as a problem".into());
            }
            let warned = marked_lines(&c, "warn").await?;
            if warned != [line.clone()] {
                return Err(format!("the gutter warns of lines {warned:?}, not {line}"));
            }
            let state = text_of(&c, "#wb-state").await.unwrap_or_default();
            if !state.contains("no problems, 1 warning") {
                return Err(format!("the state reads {state:?}"));
            }
            shot(&c, "workbench-warning").await?;
            Ok(())
        },
    );
}

/// Unsaved edits are not lost by leaving the workbench, whichever way: the
/// top menu (or another file) asks first, and staying keeps the page and
/// the edit; leaving after a yes goes where the user clicked.
#[test]
fn leaving_the_workbench_with_unsaved_edits_asks_first() {
    let (_folder, data) = data_copy("browser-leave");
    let d = data.display().to_string();
    run(
        "workbench_leave",
        &["--data", &d],
        move |c: fantoccini::Client, url: String| async move {
            open(&c, &url, ROSE_MARY).await?;
            type_at(&c, 0, "// mine\n").await?;
            let play = || async { c.find(Locator::Css("#nav a[data-area='play']")).await };
            play().await.map_err(e)?.click().await.map_err(e)?;
            let asked = c.get_alert_text().await.map_err(e)?;
            if !asked.contains(ROSE_MARY) || !asked.contains("not saved") {
                return Err(format!("the page asks {asked:?}"));
            }
            c.dismiss_alert().await.map_err(e)?;
            let url_now = c.current_url().await.map_err(e)?;
            if !url_now
                .as_str()
                .ends_with(&format!("#/workbench/{ROSE_MARY}"))
            {
                return Err(format!("stayed, but the address is {url_now}"));
            }
            let kept = value_of(&c, "#wb-text").await?;
            if !kept.starts_with("// mine\n") {
                return Err(format!(
                    "stayed, but the edit is gone: {:?}",
                    &kept[..20.min(kept.len())]
                ));
            }
            play().await.map_err(e)?.click().await.map_err(e)?;
            c.accept_alert().await.map_err(e)?;
            wait_css(&c, "#start", 20).await?;
            // Gone from the workbench, nothing is asked any more.
            c.find(Locator::Css("#nav a[data-area='cards']"))
                .await
                .map_err(e)?
                .click()
                .await
                .map_err(e)?;
            if let Ok(text) = c.get_alert_text().await {
                return Err(format!("asked again away from the workbench: {text:?}"));
            }
            Ok(())
        },
    );
}

/// A wide file gives the code box a horizontal scrollbar; scrolled to its
/// end, the line numbers still stand level with their lines (the gutter
/// scrolls as far as the box).
#[test]
fn the_line_numbers_stay_level_with_the_lines_of_a_wide_file() {
    let (_folder, data) = data_copy("browser-wide");
    let d = data.display().to_string();
    run(
        "workbench_wide",
        &["--data", &d],
        move |c: fantoccini::Client, url: String| async move {
            open(&c, &url, "cards/board.ron").await?;
            let wide = format!("// {}\n", "wide ".repeat(80));
            type_at(&c, 0, &wide).await?;
            let at = c
                .execute(
                    "const t = document.getElementById('wb-text'); \
                     const g = document.getElementById('wb-gutter'); \
                     t.scrollTop = t.scrollHeight; t.dispatchEvent(new Event('scroll')); \
                     return [t.offsetHeight - t.clientHeight, t.scrollTop, g.scrollTop];",
                    vec![],
                )
                .await
                .map_err(e)?;
            let n = |i: usize| at[i].as_f64().unwrap_or(-1.0);
            if n(0) <= 0.0 {
                return Err(format!("no horizontal scrollbar: {at}"));
            }
            if n(1) != n(2) {
                return Err(format!(
                    "the box scrolled to {}, the gutter to {}: {at}",
                    n(1),
                    n(2)
                ));
            }
            Ok(())
        },
    );
}

#[test]
fn a_comparison_with_the_game_as_the_page_opened_it_completes_with_an_interval() {
    let (_folder, data) = data_copy("browser-compare");
    let d = data.display().to_string();
    let card = "cards/nixon/10_gordon_liddy.ron";
    // Written with "\r\n" line ends, which a save must keep.
    let crlf = std::fs::read_to_string(data.join(card))
        .unwrap()
        .replace('\n', "\r\n");
    std::fs::write(data.join(card), &crlf).unwrap();
    run(
        "workbench_compare",
        &["--data", &d],
        move |c: fantoccini::Client, url: String| async move {
            open(&c, &url, card).await?;
            if value_of(&c, "#wb-editor").await? != "ismcts:1000" {
                return Err("the comparison's default agent is not the strong one".into());
            }
            // Against the game as this page opened it, after one edit.
            c.execute(
                "const s = document.getElementById('wb-against'); s.value = 'opened'; s.dispatchEvent(new Event('change'));",
                vec![],
            )
            .await
            .map_err(e)?;
            let input = wait_css(&c, "#wb-field-value", 30).await?;
            input.clear().await.map_err(e)?;
            input.send_keys("9").await.map_err(e)?;
            input.send_keys(&Key::Tab.to_string()).await.map_err(e)?;
            until("the new value in the text", 30, || async {
                value_of(&c, "#wb-text")
                    .await
                    .ok()
                    .filter(|t| t.contains("value: 9,"))
            })
            .await?;
            wait_css(&c, "#wb-ok", 30).await?;
            c.find(Locator::Css("#wb-save"))
                .await
                .map_err(e)?
                .click()
                .await
                .map_err(e)?;
            until("the save", 30, || async {
                let s = text_of(&c, "#wb-state").await?;
                s.contains("new games use it").then_some(())
            })
            .await?;
            let on_disk = std::fs::read_to_string(data.join(card)).map_err(e)?;
            if on_disk != crlf.replacen("value: 3,", "value: 9,", 1) {
                return Err(format!("the save changed more than the value: {on_disk:?}"));
            }
            let games = c.find(Locator::Css("#wb-games")).await.map_err(e)?;
            games.clear().await.map_err(e)?;
            games.send_keys("4").await.map_err(e)?;
            c.find(Locator::Css("#wb-compare"))
                .await
                .map_err(e)?
                .click()
                .await
                .map_err(e)?;
            let shown = until("the comparison's result", 300, || async {
                if let Some(err) = text_of(&c, "#wb-compare-result .error").await {
                    return Some(Err(err));
                }
                text_of(&c, "#wb-difference").await.map(Ok)
            })
            .await??;
            // "… minus the game as the workbench opened it: +x points (+l to +h) …"
            let interval = shown
                .split_once(" points (")
                .and_then(|(_, rest)| rest.split_once(')'))
                .map(|(iv, _)| iv.to_string())
                .ok_or_else(|| format!("no interval in {shown:?}"))?;
            if !interval.contains(" to ") || !shown.contains("as the workbench opened it") {
                return Err(format!("the difference reads {shown:?}"));
            }
            shot(&c, "workbench-compare").await?;
            let status = text_of(&c, "#wb-compare-status").await.unwrap_or_default();
            if status != "Done: 4 seeds, each played in both games." {
                return Err(format!("status: {status:?}"));
            }
            // The edited card's own row comes first, marked.
            let first = c
                .find(Locator::Css("#wb-cards tbody tr"))
                .await
                .map_err(e)?;
            let row = first.attr("data-card").await.map_err(e)?;
            let class = first.attr("class").await.map_err(e)?.unwrap_or_default();
            if row.as_deref() != Some("nixon.gordon_liddy") || !class.contains("this-card") {
                return Err(format!("the first card row is {row:?} ({class})"));
            }
            Ok(())
        },
    );
}

#[test]
fn without_data_the_page_is_read_only_and_says_how_to_start_a_workbench_that_writes() {
    run(
        "workbench_read_only",
        &[],
        |c: fantoccini::Client, url: String| async move {
            c.goto(&format!("{url}#/workbench/{GAME}"))
                .await
                .map_err(e)?;
            let note = wait_css(&c, "#wb-readonly", 30)
                .await?
                .text()
                .await
                .map_err(e)?;
            if !note.contains("watergate serve --data") {
                return Err(format!("the notice does not say how to start: {note:?}"));
            }
            wait_css(&c, "#wb-ok", 30).await?;
            let locked = c
                .execute(
                    "const t = document.getElementById('wb-text'); return [t.readOnly, document.getElementById('wb-save').disabled, document.getElementById('wb-compare').disabled, t.value.includes('hand_size_with_initiative')];",
                    vec![],
                )
                .await
                .map_err(e)?;
            if locked != json!([true, true, true, true]) {
                return Err(format!(
                    "read-only, save, compare disabled, text shown: {locked}"
                ));
            }
            Ok(())
        },
    );
}

/// The code box indents like a code editor: Tab puts four spaces at the
/// caret, Tab and Shift+Tab move the selected lines in and out, the
/// browser's undo takes an indent back, and Escape then Tab leaves the box
/// (a keyboard user is never trapped in it).
#[test]
fn tab_indents_the_code_box_and_escape_then_tab_leaves_it() {
    let (_folder, data) = data_copy("browser-tab");
    let d = data.display().to_string();
    run(
        "workbench_tab",
        &["--data", &d],
        move |c: fantoccini::Client, url: String| async move {
            let good = std::fs::read_to_string(data.join(GAME)).map_err(e)?;
            open(&c, &url, GAME).await?;
            let keys = |k: String| {
                let c = c.clone();
                async move {
                    c.active_element()
                        .await
                        .map_err(e)?
                        .send_keys(&k)
                        .await
                        .map_err(e)
                }
            };
            // A caret at a line's start: four spaces.
            let second = good.find('\n').ok_or("one line")? + 1;
            caret(&c, second).await?;
            keys(Key::Tab.to_string()).await?;
            let once = value_of(&c, "#wb-text").await?;
            let want = format!("{}    {}", &good[..second], &good[second..]);
            if once != want {
                return Err("Tab at a line's start did not put four spaces there".into());
            }
            // Undone by the browser's own undo.
            keys(format!("{}z{}", Key::Control, Key::Control)).await?;
            if value_of(&c, "#wb-text").await? != good {
                return Err("Ctrl+Z did not take the indent back".into());
            }
            // Three selected lines, in and out again.
            let lines: Vec<&str> = good.split('\n').collect();
            let end = lines[..4].iter().map(|l| l.len() + 1).sum::<usize>() - 1;
            c.execute(
                "const t = document.getElementById('wb-text'); t.focus(); t.setSelectionRange(arguments[0], arguments[1]);",
                vec![json!(second), json!(end)],
            )
            .await
            .map_err(e)?;
            keys(Key::Tab.to_string()).await?;
            let indented = value_of(&c, "#wb-text").await?;
            let got: Vec<&str> = indented.split('\n').collect();
            for i in 1..4 {
                if got[i] != format!("    {}", lines[i]) {
                    return Err(format!("line {} after Tab: {:?}", i + 1, got[i]));
                }
            }
            if got[0] != lines[0] || got[4] != lines[4] {
                return Err("Tab moved a line outside the selection".into());
            }
            keys(format!("{}{}{}", Key::Shift, Key::Tab, Key::Shift)).await?;
            if value_of(&c, "#wb-text").await? != good {
                return Err("Shift+Tab did not take the selected lines back out".into());
            }
            // Escape, then Tab: the focus moves on, the text is unchanged.
            keys(format!("{}{}", Key::Escape, Key::Tab)).await?;
            let left = c
                .execute(
                    "return document.activeElement && document.activeElement.id",
                    vec![],
                )
                .await
                .map_err(e)?;
            if left == json!("wb-text") {
                return Err("Escape then Tab stayed in the code box".into());
            }
            if value_of(&c, "#wb-text").await? != good {
                return Err("leaving the box changed the text".into());
            }
            Ok(())
        },
    );
}

/// Where the file list and the code box are: the code box's top and the
/// window's height, how many of the list's links show, the list's box,
/// whether the line that folds it shows and what it says.
const FILES_AND_CODE: &str = r#"
const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height }; };
const summary = document.querySelector('.wb-left summary');
return {
  code: box(document.querySelector('.wb-code')),
  height: innerHeight,
  links: document.querySelectorAll('.wb-files a').length,
  shown: [...document.querySelectorAll('.wb-files a')].filter((a) => a.checkVisibility()).length,
  list: box(document.querySelector('.wb-files')),
  fold: summary && summary.checkVisibility() ? summary.textContent : null,
  path: document.getElementById('wb-path').textContent,
};
"#;

/// Problem found by the studio's audit: on a phone (390×844) the workbench
/// listed its 76 files above the code box, which began some 1,400 px down
/// the page. There the list is folded to one line naming the file open,
/// and the code box's first lines are in the window; opened, the list
/// scrolls in a box of its own; a file picked from it opens, the list
/// folded again. In a wide window (1400×900) the list is open beside the
/// code box, with no line to fold it, as it was.
#[test]
fn on_a_phone_the_workbench_folds_its_file_list_and_the_code_box_is_in_view() {
    run(
        "workbench_phone",
        &[],
        |c: fantoccini::Client, url: String| async move {
            let look = |c: fantoccini::Client| async move {
                c.execute(FILES_AND_CODE, vec![]).await.map_err(e)
            };
            c.goto(&url).await.map_err(e)?;
            common::browser::viewport(&c, 390, 844).await?;
            open(&c, &url, GAME).await?;
            let v = look(c.clone()).await?;
            let links = v["links"].as_u64().unwrap_or(0);
            let (top, height) = (
                v["code"]["top"].as_f64().unwrap_or(f64::MAX),
                v["height"].as_f64().unwrap_or(0.0),
            );
            // Five lines of 20 px, and the box's padding, in the window.
            if links < 50 || v["shown"] != json!(0) || top + 110.0 > height {
                return Err(format!(
                    "on a phone, the list folded and the code box in view: {v}"
                ));
            }
            let fold = v["fold"].as_str().unwrap_or_default();
            if !fold.contains(GAME) || !fold.contains(&format!("({links})")) {
                return Err(format!("the folded list's line reads {fold:?}"));
            }
            // Opened: its links there (the scripts' group stays folded, as
            // in a wide window), in a box no taller than most of the
            // window; a file picked opens with the list folded again.
            c.find(Locator::Css(".wb-left summary"))
                .await
                .map_err(e)?
                .click()
                .await
                .map_err(e)?;
            let v = look(c.clone()).await?;
            let opened = v["shown"].clone();
            if opened.as_u64().unwrap_or(0) < 10
                || v["list"]["height"].as_f64().unwrap_or(f64::MAX) > 0.6 * height
            {
                return Err(format!("the list opened on a phone: {v}"));
            }
            c.find(Locator::Css(".wb-files a[data-path='cards/board.ron']"))
                .await
                .map_err(e)?
                .click()
                .await
                .map_err(e)?;
            until("cards/board.ron open", 30, || async {
                let v = look(c.clone()).await.ok()?;
                (v["path"] == json!("cards/board.ron")).then_some(())
            })
            .await?;
            wait_css(&c, "#wb-ok", 30).await?;
            let v = look(c.clone()).await?;
            let top = v["code"]["top"].as_f64().unwrap_or(f64::MAX);
            if v["shown"] != json!(0) || top + 110.0 > height {
                return Err(format!("the file picked on a phone: {v}"));
            }
            // A wide window: the list open beside the code box.
            common::browser::viewport(&c, 1400, 900).await?;
            c.goto(&format!("{url}#/workbench/{GAME}"))
                .await
                .map_err(e)?;
            until("game.ron open again", 30, || async {
                let v = look(c.clone()).await.ok()?;
                (v["path"] == json!(GAME)).then_some(())
            })
            .await?;
            wait_css(&c, "#wb-ok", 30).await?;
            let v = look(c.clone()).await?;
            let beside = v["list"]["right"].as_f64().unwrap_or(f64::MAX)
                <= v["code"]["left"].as_f64().unwrap_or(0.0)
                && v["list"]["top"].as_f64().unwrap_or(f64::MAX)
                    < v["code"]["bottom"].as_f64().unwrap_or(0.0);
            if v["shown"] != opened || !v["fold"].is_null() || !beside {
                return Err(format!(
                    "in a wide window, the list open beside the code box: {v}"
                ));
            }
            Ok(())
        },
    );
}

/// Where the problems panel lies in the window: its box, the window's
/// height, and the code box's.
const PROBLEMS_IN_VIEW: &str = r#"
const p = document.getElementById('wb-problems').getBoundingClientRect();
const code = document.querySelector('.wb-code').getBoundingClientRect();
return { top: p.top, bottom: p.bottom, height: innerHeight, code_top: code.top, code_bottom: code.bottom,
         text: document.getElementById('wb-problems').textContent };
"#;

/// Problem found by the studio's audit: on a phone (390×844) the problems
/// panel lay below the code box, out of the window while the designer
/// typed, so a problem made by a keystroke went unseen. There the panel
/// stays in the window beside the code box: with the page as opened, and
/// scrolled to the code box's top, its first lines show.
#[test]
fn on_a_phone_the_workbench_keeps_its_problems_in_view_beside_the_code_box() {
    let (_base, data) = data_copy("phone_problems");
    let d = data.display().to_string();
    run(
        "workbench_phone_problems",
        &["--data", &d],
        |c: fantoccini::Client, url: String| async move {
            c.goto(&url).await.map_err(e)?;
            common::browser::viewport(&c, 390, 844).await?;
            open(&c, &url, GAME).await?;
            // A keystroke that makes a problem: a misspelt field.
            let text = value_of(&c, "#wb-text").await?;
            let at = text
                .find("hand_size_with_initiative")
                .ok_or("no field to misspell")?
                + "hand_size_with_initiativ".len();
            c.execute(
                "const t = document.getElementById('wb-text'); t.focus(); t.setSelectionRange(arguments[0], arguments[0] + 1); t.setRangeText(''); t.dispatchEvent(new Event('input'));",
                vec![json!(at)],
            )
            .await
            .map_err(e)?;
            until("the problem", 30, || async {
                let t = text_of(&c, "#wb-problems").await?;
                (t.contains("1 problem") && t.contains("initiativ")).then_some(())
            })
            .await?;
            for (how, script) in [
                ("as opened", "window.scrollTo(0, 0);"),
                (
                    "scrolled to the code box",
                    "window.scrollTo(0, document.querySelector('.wb-code').getBoundingClientRect().top + scrollY);",
                ),
            ] {
                c.execute(script, vec![]).await.map_err(e)?;
                tokio::time::sleep(Duration::from_millis(100)).await;
                let v = c.execute(PROBLEMS_IN_VIEW, vec![]).await.map_err(e)?;
                let (top, height) = (
                    v["top"].as_f64().unwrap_or(f64::MAX),
                    v["height"].as_f64().unwrap_or(0.0),
                );
                let code_shows = v["code_top"].as_f64().unwrap_or(f64::MAX) < height
                    && v["code_bottom"].as_f64().unwrap_or(0.0) > 0.0;
                if top < 0.0 || top + 40.0 > height || !code_shows {
                    return Err(format!(
                        "on a phone, {how}: the problems and the code box in the window: {v}"
                    ));
                }
            }
            Ok(())
        },
    );
}
