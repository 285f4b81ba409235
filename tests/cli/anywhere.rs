//! Installed, not checked out (issue 39): every shipped puzzle and variant
//! works with the binary run from an empty folder, where no `scenarios/`
//! lies on disk. The files a shipped puzzle names (its variant, the
//! variant's board file) are found in the copy built into the binary.
//! The command line (scenario, solve, puzzle, check --variant, check
//! --deep) and the studio (every puzzle of the Puzzles page, every variant
//! of the Lab's list) are run with such a folder as their current one.

use crate::common;
use crate::common::temp::TempFolder;

use common::watergate_in;

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

/// An empty folder for one test: nothing copied into it.
fn empty_dir(name: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-anywhere-{name}"))
}

fn succeeded(o: &Output, what: &str) -> String {
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{what}: exit {:?}\n{out}\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The shipped `.ron` files of `scenarios/<folder>`, by name (read from
/// the checkout the binary was built from: the test's list of what to try).
fn shipped(folder: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(folder);
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    names.sort();
    names
}

/// The shipped variant files proper (not the board, card and script files
/// they name, which lie beside them).
fn shipped_variants() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/variants");
    shipped("variants")
        .into_iter()
        .filter(|n| {
            let text = std::fs::read_to_string(dir.join(n)).unwrap();
            watergate::data::ron_head(&text) == Some("Variant")
        })
        .collect()
}

#[test]
fn the_command_line_finds_every_shipped_file_from_an_empty_folder() {
    let dir = empty_dir("cli");
    let puzzles = shipped("puzzles");
    assert!(puzzles.len() >= 15, "{puzzles:?}");
    for p in &puzzles {
        let file = format!("scenarios/puzzles/{p}");
        succeeded(
            &watergate_in(&dir, &["scenario", &file], ""),
            &format!("scenario {file}"),
        );
        let out = succeeded(
            &watergate_in(&dir, &["puzzle", &file], "reveal\n"),
            &format!("puzzle {file}"),
        );
        assert!(
            out.contains("solution revealed: yes"),
            "puzzle {file}: {out}"
        );
    }
    // `solve` loads as `puzzle` does (which ran the solver on each above):
    // the puzzle of the issue, its claim checked.
    let out = succeeded(
        &watergate_in(&dir, &["solve", "scenarios/puzzles/12_howard_hunt.ron"], ""),
        "solve 12_howard_hunt.ron",
    );
    assert!(out.contains("Nixon can force a win"), "{out}");
    let variants = shipped_variants();
    assert!(
        variants.contains(&"old_board.ron".to_string()),
        "{variants:?}"
    );
    for v in &variants {
        let file = format!("scenarios/variants/{v}");
        succeeded(
            &watergate_in(&dir, &["check", "--variant", &file], ""),
            &format!("check --variant {file}"),
        );
    }
    // The deep check plays the shipped puzzles even here, the mined ones
    // included (and says how many).
    let out = succeeded(
        &watergate_in(&dir, &["check", "--deep", "--games", "6"], ""),
        "check --deep",
    );
    assert!(
        out.contains(&format!(
            "{} scenario files played",
            puzzles.len() + shipped("puzzles/mined").len()
        )),
        "{out}"
    );
    assert!(out.contains("no script failed"), "{out}");
    // Nothing was written to the folder.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// `(status, JSON body)` of one request.
fn call(
    c: &common::http::Client,
    method: &str,
    path: &str,
    body: Option<serde_json::Value>,
) -> (u16, serde_json::Value) {
    let b = body.map(|b| b.to_string()).unwrap_or_default();
    let r = c.send(method, path, &[], b.as_bytes());
    (r.status, r.json())
}

#[test]
fn the_studio_opens_every_puzzle_and_runs_every_variant_from_an_empty_folder() {
    let dir = empty_dir("studio");
    let server = common::server::Server::start_in(Some(&dir), &[]);
    let c = common::http::Client::new(server.port);

    let (status, list) = call(&c, "GET", "/api/puzzles", None);
    assert_eq!(status, 200, "{list}");
    let listed: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, shipped("puzzles"));
    for file in &listed {
        let (status, v) = call(
            &c,
            "POST",
            "/api/puzzles/attempt",
            Some(serde_json::json!({ "file": file })),
        );
        assert_eq!(status, 200, "{file}: {v}");
        assert!(
            v["options"].as_array().is_some_and(|o| !o.is_empty()),
            "{file}: {v}"
        );
    }

    // The Lab offers the variants, and only them.
    let (status, v) = call(&c, "GET", "/api/lab/variants", None);
    assert_eq!(status, 200, "{v}");
    let variants: Vec<String> = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    assert_eq!(variants, shipped_variants());
    assert!(!variants.contains(&"board_2025.ron".to_string()));
    for variant in &variants {
        let (status, v) = call(
            &c,
            "POST",
            "/api/lab",
            Some(serde_json::json!({ "games": 2, "variant": variant, "against": "base" })),
        );
        assert_eq!(status, 200, "{variant}: {v}");
        let id = v["id"].as_str().unwrap().to_string();
        let start = Instant::now();
        let v = loop {
            let (_, v) = call(&c, "GET", &format!("/api/lab/{id}"), None);
            if v["finished"] == true {
                break v;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "{variant}: the run did not finish"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(v["error"].is_null(), "{variant}: {v}");
        assert_eq!(v["result"]["games"], 2, "{variant}: {v}");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// A position saved, or a puzzle mined, from a shipped puzzle or variant in
/// a folder without `scenarios/` names the shipped file by its shipped name
/// (`scenarios/variants/old_board.ron`), which loads from the saved file's
/// folder and any other. It wrote the name as typed, relative to the
/// folder the command ran in, which the saved file could not resolve.
#[test]
fn a_position_saved_from_a_shipped_puzzle_loads_again_from_its_own_folder() {
    let dir = empty_dir("saved");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    succeeded(
        &watergate_in(
            &dir,
            &[
                "-q",
                "scenario",
                "scenarios/puzzles/01_reaction_chain.ron",
                "--save",
                "sub/out.ron",
            ],
            "",
        ),
        "save",
    );
    let saved = std::fs::read_to_string(dir.join("sub/out.ron")).unwrap();
    assert!(
        saved.contains("variant: \"scenarios/variants/old_board.ron\""),
        "{saved}"
    );
    succeeded(
        &watergate_in(&dir, &["-q", "scenario", "sub/out.ron"], ""),
        "load from the working folder",
    );
    succeeded(
        &watergate_in(&dir.join("sub"), &["-q", "scenario", "out.ron"], ""),
        "load from its own folder",
    );
    succeeded(
        &watergate_in(
            &dir,
            &[
                "-q",
                "mine",
                "--games",
                "2",
                "--agents",
                "heuristic",
                "--depth",
                "2",
                "--variant",
                "scenarios/variants/four_evidence.ron",
                "--out",
                "mined",
            ],
            "",
        ),
        "mine on a shipped variant",
    );
    let mined: Vec<_> = std::fs::read_dir(dir.join("mined"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!mined.is_empty(), "two games give a puzzle");
    for p in mined {
        let name = p.display().to_string();
        succeeded(&watergate_in(&dir, &["-q", "solve", &name], ""), &name);
    }
}
