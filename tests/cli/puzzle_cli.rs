//! The puzzle commands end to end: `solve` keeps a puzzle's answer to
//! itself unless asked, `play --scenario` states the goal, and `puzzle`
//! runs an attempt from standard input.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn puzzle_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/puzzles")
        .join(name)
}

fn watergate(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().unwrap()
}

#[test]
fn solve_prints_the_winning_line_only_when_asked() {
    let file = puzzle_file("12_howard_hunt.ron");
    let file = file.to_str().unwrap();
    let out = watergate(&["solve", file], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Nixon can force a win"), "{text}");
    assert!(
        !text.contains("winning line") && !text.contains("chuck_colson"),
        "{text}"
    );
    let out = watergate(&["solve", file, "--show-line"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("winning line:"), "{text}");
    assert!(text.contains("Nixon: nixon.howard_hunt action"), "{text}");
}

#[test]
fn play_on_a_puzzle_states_its_goal() {
    let file = puzzle_file("02_follow_the_money.ron");
    let out = watergate(
        &[
            "play",
            "--scenario",
            file.to_str().unwrap(),
            "--log",
            "-",
            "--ai",
            "random",
        ],
        "quit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\nGoal: Editor to play and win this round.\n"),
        "{text}"
    );
}

#[test]
fn puzzle_command_reads_an_attempt_from_standard_input() {
    let file = puzzle_file("12_howard_hunt.ron");
    let out = watergate(
        &["puzzle", file.to_str().unwrap(), "--no-colour"],
        "hint\nhoward_hunt action\nchuck_colson action\nhint\nsecure_mccord value\nmomentum\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Goal: Nixon to play and win."), "{text}");
    assert!(text.contains("Hint: nixon.howard_hunt action"), "{text}");
    assert!(text.contains("Solved."), "{text}");
    assert!(
        text.contains("Hints used: 2 · solution revealed: no"),
        "{text}"
    );
    // A file that is not a puzzle is refused as input (exit 2).
    let plain = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/steps/inline_edits_card_value.ron");
    let out = watergate(&["puzzle", plain.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a puzzle"));
}

/// `--variant` applies before the puzzle's own data: with Nixon needing a
/// sixth momentum token (nixon_needs_6.ron), puzzle 12's line no longer
/// wins, and the hint says so.
#[test]
fn puzzle_takes_a_variant() {
    let file = puzzle_file("12_howard_hunt.ron");
    let variant =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/variants/nixon_needs_6.ron");
    let out = watergate(
        &[
            "puzzle",
            file.to_str().unwrap(),
            "--variant",
            variant.to_str().unwrap(),
        ],
        "hint\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Hint: no move forces the win from here"),
        "{text}"
    );
}

/// `puzzle` follows the global `--color` (and `NO_COLOR`), as every command
/// does: it coloured by its own test of the terminal only.
#[test]
fn puzzle_takes_the_global_colour_choice() {
    let file = puzzle_file("01_reaction_chain.ron");
    let file = file.to_str().unwrap();
    let always = watergate(
        &["--color", "always", "puzzle", file, "--seed", "1"],
        "quit\n",
    );
    assert!(String::from_utf8_lossy(&always.stdout).contains("\u{1b}["));
    let never = watergate(
        &["--color", "never", "puzzle", file, "--seed", "1"],
        "quit\n",
    );
    assert!(!String::from_utf8_lossy(&never.stdout).contains("\u{1b}["));
}

/// `--list` of a shipped folder from outside a checkout lists the built-in
/// copies (as `puzzle FILE` opens them), and `--difficulty` filters a list
/// only: with a puzzle FILE and no `--list` it is refused, where it listed
/// the file as a folder.
#[test]
fn listing_a_shipped_folder_works_anywhere_and_difficulty_needs_list() {
    let o = watergate(
        &[
            "puzzle",
            "--list",
            "scenarios/puzzles/mined",
            "--difficulty",
            "hard",
        ],
        "",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.ends_with(" hard puzzles")),
        "{out}"
    );
    assert!(out.contains("(scenarios/puzzles/mined/s1_g"), "{out}");
    let o = watergate(
        &[
            "puzzle",
            "scenarios/puzzles/01_reaction_chain.ron",
            "--difficulty",
            "hard",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--list"));
}
