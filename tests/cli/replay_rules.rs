//! A game log replays on the rules it was played with, by itself: a game
//! played on from a puzzle that names a variant (`variant:
//! "../variants/old_board.ron"`) records it, and `replay LOG` plays on it.
//! A log replayed on other rules than its own is told so in one error that
//! names the rules it needs, not as every token and space that no longer
//! fits.

use crate::common::temp::TempFolder;
use crate::common::watergate_in;
use std::path::Path;
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn root(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

/// A folder holding `p.log.ron`: one choice played on from puzzle 06,
/// whose scenario names the old board's variant.
fn game_on_the_old_board(name: &str) -> TempFolder {
    let dir = TempFolder::new(&format!("watergate-replay-rules-{name}"));
    let out = watergate_in(
        &dir,
        &[
            "play",
            "--scenario",
            &root("scenarios/puzzles/06_deep_throat.ron"),
            "--as",
            "both",
            "--log",
            "p.log.ron",
        ],
        "1\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

#[test]
fn a_game_played_from_a_puzzle_with_a_variant_replays_by_its_log_alone() {
    let dir = game_on_the_old_board("alone");
    let log = std::fs::read_to_string(dir.join("p.log.ron")).unwrap();
    assert!(log.contains("scenarios/variants/old_board.ron\","), "{log}");
    let out = watergate_in(&dir, &["replay", "p.log.ron"], "");
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("other game data"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("The replay ends as the log records"));
    // The variant named again on the command line is the same game.
    let out = watergate_in(
        &dir,
        &[
            "replay",
            "p.log.ron",
            "--variant",
            &root("scenarios/variants/old_board.ron"),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_log_replayed_on_other_rules_is_one_error_naming_the_rules_it_needs() {
    let dir = game_on_the_old_board("other");
    let out = watergate_in(
        &dir,
        &[
            "replay",
            "p.log.ron",
            "--variant",
            &root("scenarios/variants/no_gambit.ron"),
        ],
        "",
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("p.log.ron:"), "{err}");
    assert!(
        err.contains("this game was played on other rules than"),
        "{err}"
    );
    assert!(err.contains("old_board.ron"), "{err}");
    assert!(
        err.contains("replay it without --data and --variant"),
        "{err}"
    );
    assert!(err.ends_with("1 problem found\n"), "{err}");
    assert!(!err.contains("evidence token"), "{err}");
    assert!(!err.contains("no board space"), "{err}");
}

/// A log written before logs named their rules said them in its first
/// line only: replayed without them, the error quotes that line.
#[test]
fn an_older_log_replayed_without_its_flags_is_told_the_flags_of_its_first_line() {
    let dir = game_on_the_old_board("older");
    let log = std::fs::read_to_string(dir.join("p.log.ron")).unwrap();
    let variant = std::path::Path::new(&root("scenarios/variants/old_board.ron"))
        .canonicalize()
        .unwrap()
        .display()
        .to_string();
    let named = format!("variant: {variant:?},");
    assert!(log.contains(&named), "{log}");
    let (_, body) = log.split_once('\n').unwrap();
    let older = format!(
        "// A Watergate game log written by watergate 0.1.0; replay it with `watergate replay FILE --variant {variant}`.\n{}",
        body.replacen(&named, "variant: None,", 1)
    );
    std::fs::write(dir.join("older.log.ron"), older).unwrap();
    let out = watergate_in(&dir, &["replay", "older.log.ron"], "");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "its first line says how it was played: replay it with `watergate replay older.log.ron --variant {variant}`"
        )),
        "{err}"
    );
    assert!(err.ends_with("1 problem found\n"), "{err}");
}
