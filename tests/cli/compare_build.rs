//! `watergate bench --compare-build OTHER`: this build timed against
//! another on the same random games, in paired rounds of child processes.
//! The timings are never asserted (BENCHMARKS.md records them); what is
//! checked is what the user is told: the ratio's provenance, whether the
//! two builds played the same games, and a refusal, before any
//! measurement, of a build that cannot play.

use crate::common::temp::TempFolder;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const WATERGATE: &str = env!("CARGO_BIN_EXE_watergate");

fn watergate(args: &[&str]) -> Output {
    Command::new(WATERGATE)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The standard output of a run that must have succeeded.
fn succeeded(o: &Output) -> String {
    let out = stdout(o);
    assert!(o.status.success(), "{out}\n{}", stderr(o));
    out
}

/// `bench --quick [extra…] --compare-build OTHER` with `rounds` rounds of
/// `games` games.
fn bench_against(other: &str, rounds: u32, games: u32, extra: &[&str]) -> Output {
    let (rounds, games) = (rounds.to_string(), games.to_string());
    let mut args = vec!["bench", "--quick"];
    args.extend_from_slice(extra);
    args.extend([
        "--compare-build",
        other,
        "--compare-rounds",
        &rounds,
        "--compare-games",
        &games,
    ]);
    watergate(&args)
}

/// A scratch folder of this test's own.
fn scratch(name: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-compare-{name}"))
}

/// An executable shell script standing in for another build.
fn script(dir: &Path, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("other-watergate");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_build_against_itself_plays_the_same_games() {
    let o = bench_against(WATERGATE, 2, 30, &[]);
    let out = succeeded(&o);
    assert!(
        out.contains(&format!("this build against {WATERGATE}: ")),
        "{out}"
    );
    assert!(
        out.contains("as fast (median of 2 paired rounds of 30 random games on one thread"),
        "{out}"
    );
    assert!(
        out.contains("same games: the two builds' reports agree line for line"),
        "{out}"
    );
}

#[test]
fn the_game_given_to_the_bench_is_the_game_both_builds_play() {
    // The other build records its arguments, then is this build.
    let dir = scratch("variant");
    let log = dir.join("args.txt");
    let other = script(
        &dir,
        &format!(
            "echo \"$@\" >> '{}'\nexec '{WATERGATE}' \"$@\"",
            log.display()
        ),
    );
    let variant = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/variants/cheap_liddy.ron"
    );
    let o = bench_against(other.to_str().unwrap(), 1, 20, &["--variant", variant]);
    let out = succeeded(&o);
    let args = std::fs::read_to_string(&log).unwrap();
    // The checks before the bench (its version, one game), then the round.
    assert_eq!(args.lines().count(), 3, "{args}");
    assert_eq!(args.lines().next(), Some("--version"), "{args}");
    for line in args.lines().skip(1) {
        assert!(line.contains(&format!("--variant {variant}")), "{line}");
        assert!(line.contains("--threads 1"), "{line}");
    }
    assert!(
        out.contains("same games: the two builds' reports agree"),
        "{out}"
    );
}

#[test]
fn a_build_that_plays_other_games_is_named_as_such() {
    // Another seed: other games, so the ratio would compare other work.
    let dir = scratch("seed");
    let other = script(
        &dir,
        &format!(
            "[ \"$1\" = --version ] && exec '{WATERGATE}' --version\nexec '{WATERGATE}' simulate --quiet --threads 1 --games 20 --seed 8"
        ),
    );
    let o = bench_against(other.to_str().unwrap(), 1, 20, &[]);
    let out = succeeded(&o);
    assert!(
        out.contains("NOT the same games or statistics, so the ratio compares different work; first difference: this build: \"20 games, seed 7:"),
        "{out}"
    );
}

#[test]
fn a_build_that_cannot_play_is_refused_before_any_measurement() {
    let o = watergate(&["bench", "--quick", "--compare-build", "/no/such/watergate"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--compare-build: cannot run `/no/such/watergate`"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "", "nothing is measured");

    let dir = scratch("failing");
    let other = script(&dir, "echo 'not a watergate' >&2\nexit 3");
    let o = watergate(&[
        "bench",
        "--quick",
        "--compare-build",
        other.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("failed (exit status: 3): not a watergate"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "", "nothing is measured");
}

#[test]
fn the_comparison_options_need_a_build_to_compare() {
    let o = watergate(&["bench", "--quick", "--compare-rounds", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--compare-build <WATERGATE>"),
        "{}",
        stderr(&o)
    );
}
