//! `watergate sweep` and `watergate ladder`, end to end with the binary, on
//! tiny runs. Sweep: the table,
//! JSON, CSV and chart, paired seeds, shards merged exactly, bad input.

use crate::common::temp::TempFolder;
use std::process::{Command, Output};

fn watergate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A folder of the test's own for its files (removed when dropped).
fn temp(test: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-sweep-{test}"))
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

const RANDOM: [&str; 4] = ["--editor", "random", "--nixon", "random"];

#[test]
fn a_card_value_sweep_gives_a_table_csv_and_chart() {
    // Charts are named by what they are: `*.svg`.
    let dir = temp("value");
    let csv = dir.join("table.csv");
    let svg = dir.join("chart.svg");
    let mut args = vec![
        "sweep",
        "--param",
        "card.gordon_liddy.value=1,4",
        "--games",
        "8",
        "--threads",
        "1",
    ];
    args.extend(RANDOM);
    args.extend([
        "--csv",
        csv.to_str().unwrap(),
        "--chart",
        svg.to_str().unwrap(),
    ]);
    let out = watergate(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("card.gordon_liddy.value=1"), "{text}");
    assert!(text.contains("card.gordon_liddy.value=4"), "{text}");
    let table = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), 3, "{table}");
    assert!(rows[0].starts_with("card.gordon_liddy.value,games,editor_wins"));
    assert!(
        rows[1].starts_with("1,8,") && rows[2].starts_with("4,8,"),
        "{table}"
    );
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(
        chart.contains("<svg") && chart.contains("Editor"),
        "not a chart"
    );
}

#[test]
fn the_point_with_the_game_s_own_values_is_marked_base() {
    // Gordon Liddy's value is 3 and the shipped game has 3 evidence tokens
    // a round: that point is the base, in the table, the CSV and the JSON.
    let dir = temp("base");
    let csv = dir.join("table.csv");
    let mut args = vec![
        "sweep",
        "--param",
        "card.gordon_liddy.value=2,3",
        "--param",
        "game.evidence_per_round=3,4",
        "--games",
        "4",
        "--csv",
        csv.to_str().unwrap(),
    ];
    args.extend(RANDOM);
    let out = watergate(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    let marked: Vec<&str> = text.lines().filter(|l| l.ends_with("← base")).collect();
    assert_eq!(marked.len(), 1, "{text}");
    assert!(
        marked[0].starts_with("card.gordon_liddy.value=3 game.evidence_per_round=3 "),
        "{text}"
    );
    assert!(
        text.contains("← base: the values the shipped game has"),
        "{text}"
    );
    let table = std::fs::read_to_string(&csv).unwrap();
    let bases: Vec<&str> = table.lines().filter(|l| l.ends_with(",true")).collect();
    assert_eq!(bases.len(), 1, "{table}");
    assert!(bases[0].starts_with("3,3,"), "{table}");
    args.truncate(7);
    args.push("--json");
    args.extend(RANDOM);
    let v = json(&watergate(&args));
    let flags: Vec<bool> = (v["summary"].as_array().unwrap().iter())
        .map(|p| p["base"].as_bool().unwrap())
        .collect();
    assert_eq!(flags, [false, false, true, false]);

    // No value the game has among those swept: no row is the base.
    let mut args = vec![
        "sweep",
        "--param",
        "card.gordon_liddy.value=1,4",
        "--games",
        "2",
    ];
    args.extend(RANDOM);
    let text = String::from_utf8(watergate(&args).stdout).unwrap();
    assert!(!text.contains("base"), "{text}");
}

#[test]
fn every_point_plays_the_same_seeds() {
    // A card's name changes no game (a value given twice is refused): the
    // paired seeds and agents make two names' points identical game for
    // game, while another evidence_per_round is another game.
    let mut args = vec![
        "sweep",
        "--param",
        r#"card.nixon.gordon_liddy.name="Liddy","G. Gordon Liddy""#,
        "--param",
        "game.evidence_per_round=3,4",
        "--games",
        "10",
        "--json",
        "--threads",
        "2",
    ];
    args.extend(RANDOM);
    let v = json(&watergate(&args));
    let pts = v["sweep"]["points"].as_array().unwrap();
    // The first parameter slowest: (Liddy, 3), (Liddy, 4), (G. Gordon, 3), (G. Gordon, 4).
    assert_eq!(pts.len(), 4);
    assert_eq!(pts[0]["tally"], pts[2]["tally"]);
    assert_eq!(pts[1]["tally"], pts[3]["tally"]);
    assert_ne!(pts[0]["tally"], pts[1]["tally"]);
}

#[test]
fn two_shards_merge_to_the_whole_sweep() {
    let dir = temp("shards");
    let base = [
        "sweep",
        "--param",
        "card.gordon_liddy.value=1,2",
        "--param",
        "tokens.blue.in_bag=4,5",
        "--games",
        "6",
        "--json",
        "--threads",
        "1",
        "--editor",
        "random",
        "--nixon",
        "random",
    ];
    let whole = json(&watergate(&base));
    let mut files = Vec::new();
    for shard in ["1/2", "2/2"] {
        let mut args = base.to_vec();
        args.extend(["--shard", shard]);
        let out = watergate(&args);
        let f = dir.join(format!("shard{}", &shard[..1]));
        std::fs::write(&f, &out.stdout).unwrap();
        files.push(f);
    }
    let mut args = vec!["sweep", "--json", "--merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let merged = json(&watergate(&args));
    assert_eq!(merged["summary"], whole["summary"]);
    assert_eq!(whole["summary"].as_array().unwrap().len(), 4);
    // A shard merged twice is refused.
    let again = watergate(&[
        "sweep",
        "--merge",
        files[0].to_str().unwrap(),
        files[0].to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already counted"));
    // The files say what was swept: a --param beside --merge was ignored
    // without a word; it is refused.
    let with_param = watergate(&[
        "sweep",
        "--merge",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        "--param",
        "game.evidence_per_round=3",
    ]);
    assert_eq!(with_param.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&with_param.stderr).contains("cannot be used with"));
}

#[test]
fn a_simulate_result_given_to_sweep_merge_is_sent_to_merge() {
    let dir = temp("simulate-to-sweep-merge");
    let out = watergate(&["simulate", "--games", "2", "--json", "--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(0));
    let f = dir.join("simulate.json");
    std::fs::write(&f, &out.stdout).unwrap();
    let merged = watergate(&["sweep", "--merge", f.to_str().unwrap()]);
    assert_eq!(merged.status.code(), Some(2));
    let err = String::from_utf8_lossy(&merged.stderr);
    assert!(
        err.contains("a `simulate --json` result: combine simulate shards with `watergate merge"),
        "{err}"
    );
    // And a JSON file of neither kind says what sweep --merge takes.
    let other = dir.join("other.json");
    std::fs::write(&other, "{\"points\": []}").unwrap();
    let err = watergate(&["sweep", "--merge", other.to_str().unwrap()]);
    assert_eq!(err.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&err.stderr).contains("it has no `sweep`"),
        "{}",
        String::from_utf8_lossy(&err.stderr)
    );
}

#[test]
fn bad_parameters_are_usage_errors() {
    let out = watergate(&["sweep", "--param", "card.gordon_liddy.value"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NAME=V1,V2"));
    let out = watergate(&[
        "sweep",
        "--param",
        "card.no_such_card.value=1",
        "--games",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no card `no_such_card`"));
    // A list value given bare: the message says how to write one, and
    // speaks of no file (the point is no file).
    let out = watergate(&[
        "sweep",
        "--param",
        "card.gordon_liddy.colours=Blue,Green",
        "--games",
        "1",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a list value is written in brackets, one list a value, as in `card.gordon_liddy.colours=[Blue],[Blue,Green]`"),
        "{err}"
    );
    assert!(!err.contains("this file"), "{err}");
    // A value that is no number: said of the parameter, not of the field
    // of the variant the sweep writes for the point.
    let out = watergate(&["sweep", "--param", "tokens.blue.in_bag=1,x", "--games", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("sweep point tokens.blue.in_bag=x: expected integer"),
        "{err}"
    );
    assert!(!err.contains("token_counts"), "{err}");
    // Written so, it runs.
    let out = watergate(&[
        "sweep",
        "--param",
        "card.gordon_liddy.colours=[Blue],[Blue,Green]",
        "--games",
        "2",
        "--json",
    ]);
    assert_eq!(
        json(&out)["sweep"]["points"].as_array().map(Vec::len),
        Some(2)
    );
}

#[test]
fn the_ladder_rates_agents_and_the_side_advantage() {
    let out = watergate(&[
        "ladder",
        "--agents",
        "random,heuristic",
        "--games",
        "6",
        "--threads",
        "1",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["agents"], serde_json::json!(["random", "heuristic"]));
    // Both sides, every pairing, itself included: 2 × 2 pairings.
    assert_eq!(v["pairings"].as_array().unwrap().len(), 4);
    assert_eq!(v["ratings"][0]["elo"], 0.0);
    let h = &v["ratings"][1];
    assert!(h["low"].as_f64().unwrap() <= h["elo"].as_f64().unwrap());
    assert!(v["editor_advantage"]["elo"].is_number());
    let out = watergate(&["ladder", "--agents", "random"]);
    assert_eq!(out.status.code(), Some(2));
}
