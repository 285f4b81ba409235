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

/// Every line of a puzzle session fits in 80 columns, as the README
/// promises for `play` and `puzzle`: the goal, the opening line, a hint,
/// the recorded solution, a refused answer, and a wrong move answered
/// with the solver's best defence.
#[test]
fn a_puzzle_session_fits_in_80_columns() {
    let file = puzzle_file("01_reaction_chain.ron");
    let out = watergate(
        &[
            "puzzle",
            file.to_str().unwrap(),
            "--no-colour",
            "--seed",
            "1",
        ],
        "hint\nreveal\nfoo\nreact editor.ben_bradlee\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // The session went where the test means it to: each long line came.
    for said in [
        "Goal:",
        "Hint:",
        "Solution (from the start):",
        "`foo` is not one of the options",
        "The solver's answer, its best defence from here:",
    ] {
        assert!(text.contains(said), "no `{said}` in:\n{text}");
    }
    let long: Vec<&str> = text.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(
        long.is_empty(),
        "lines over 80 columns:\n{}",
        long.join("\n")
    );
}

/// `puzzle --list` loads each puzzle as `puzzle FILE` would: one whose
/// recorded solution is not legal, or whose side is not to move, is marked
/// with the first line of its problem, not listed as a puzzle to attempt.
#[test]
fn puzzle_list_marks_the_puzzles_that_do_not_load() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken_scenarios");
    let o = watergate(&["puzzle", "--list", corpus.to_str().unwrap()], "");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    let line = |file: &str| {
        out.lines()
            .find(|l| l.contains(file))
            .unwrap_or_else(|| panic!("no {file} in:\n{out}"))
            .to_string()
    };
    let bad = line("puzzle_solution_not_an_option.ron");
    assert!(bad.contains("does not load:"), "{bad}");
    assert!(bad.contains("the recorded solution"), "{bad}");
    assert!(bad.starts_with("- "), "{bad}");
    let side = line("puzzle_side_not_to_move.ron");
    assert!(side.contains("does not load:"), "{side}");
    assert!(side.contains("but Nixon is to move"), "{side}");
    // The shipped puzzles all load.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/puzzles");
    let o = watergate(&["puzzle", "--list", shipped.to_str().unwrap()], "");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains("does not load"), "{out}");
}

/// `scenario --json` names who decides next as expectations do (`editor`,
/// `nixon`, `chance`, `none`), never as a Rust enum, and a file without a
/// name has `"scenario": null`.
#[test]
fn scenario_json_names_the_side_to_move_in_words() {
    let dir = crate::common::temp::TempFolder::new("scenario-json");
    let file = dir.join("nameless.ron");
    std::fs::write(
        &file,
        r#"Scenario(position: Some((hands: (
            editor: ["editor.recruit_woods", "editor.recruit_sloan"],
            nixon: ["nixon.secure_sloan", "nixon.secure_dean"],
        ))))"#,
    )
    .unwrap();
    let json = |file: &Path| {
        let o = watergate(&["scenario", file.to_str().unwrap(), "--json"], "");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let v = json(&file);
    assert_eq!(v["to_move"], "editor", "{v}");
    assert!(v["scenario"].is_null(), "{v}");
    let over = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/rules/r8_3_two_connected_informants_editor_wins.ron");
    let v = json(&over);
    assert_eq!(v["to_move"], "none", "{v}");
    assert_eq!(
        v["scenario"],
        "R8.3 two connected informants: the Editor wins"
    );
}

/// A decision with one option is taken by the game and not written: the
/// Editor's last card, Ben Bradlee (a reaction card), can only be played
/// for its value. `scenario` shows it among the choices played, marked;
/// `solve --show-line` under the move it follows; and writing it in `play`
/// is refused with a message that says it was forced.
#[test]
fn forced_moves_are_shown_as_such_and_refused_in_play_with_a_reason() {
    let dir = crate::common::temp::TempFolder::new("forced-moves");
    let write = |name: &str, play: &str| {
        let file = dir.join(name);
        std::fs::write(
            &file,
            format!(
                r#"Scenario(
    position: Some((hands: (
        editor: ["editor.recruit_woods", "editor.ben_bradlee"],
        nixon: ["nixon.secure_sloan", "nixon.secure_dean"],
    ))),
    play: [{play}],
)"#
            ),
        )
        .unwrap();
        file.to_str().unwrap().to_string()
    };
    let moves = r#""recruit_woods value", "initiative", "secure_sloan value", "momentum""#;
    let o = watergate(&["scenario", &write("played.ron", moves)], "");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("· momentum · (forced) Editor: editor.ben_bradlee value\n"),
        "{out}"
    );
    let written = format!(r#"{moves}, "ben_bradlee value""#);
    let o = watergate(&["scenario", &write("written.ron", &written)], "");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "`ben_bradlee value` was the Editor's only option and was played for her; forced moves are not written in `play:`"
        ),
        "{err}"
    );
    let first = r#""recruit_woods value", "initiative""#;
    let o = watergate(&["solve", &write("line.ron", first), "--show-line"], "");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("\n      (forced) Editor: editor.ben_bradlee value\n"),
        "{out}"
    );
}
