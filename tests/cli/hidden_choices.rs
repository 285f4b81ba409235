//! `watergate check` warns of a card script whose choice lists what the
//! rules hide from its chooser: an Editor's card choosing research-track
//! evidence by colour among face-down tokens too (R4.3: only Nixon may look
//! at them), and a card choosing from the opponent's hand (R5.14 names what
//! is public; a hand is not). Advice, not an error: the game still loads
//! and `check` exits 0, as a house rule may mean it.

use crate::common::cli::{exported_game, watergate_in};
use std::path::Path;

/// `check`'s warnings for the exported game with `script` (under
/// `mydata/scripts/`) holding `text`; `check` must pass.
fn warnings_with(name: &str, script: &str, text: &str) -> Vec<String> {
    check_with(name, script, text, &[]).1
}

/// `check --data mydata ARGS` on the exported game with `script` holding
/// `text`, which must pass: its stdout and its stderr's lines.
fn check_with(name: &str, script: &str, text: &str, args: &[&str]) -> (String, Vec<String>) {
    let dir = exported_game(&format!("hidden-choices-{name}"));
    std::fs::write(dir.join("mydata/scripts").join(script), text).unwrap();
    let out = watergate_in(&dir, &[&["check", "--data", "mydata"], args].concat());
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "check failed:\n{err}");
    let lines = err.lines().map(str::to_string).collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), lines)
}

const ROSE_MARY: &str = "editor/the_rose_mary_stretch.rhai";

/// The warning of The Rose Mary Stretch choosing green evidence face up or
/// down, at `line` holding `code`, with its snippet and caret.
fn rose_mary_green_warning(line: usize, code: &str) -> Vec<String> {
    vec![
        format!(
            "warning: mydata/scripts/editor/the_rose_mary_stretch.rhai:{line}:1: \
             `pin_track_evidence` with colour \"green\" lists the face-down evidence of that \
             colour on the research track to the Editor (The Rose Mary Stretch), who may not \
             see their colours (R4.3); add `face: \"up\"` unless the card means to tell her"
        ),
        format!("    {line} | {code}"),
        "      | ^".to_string(),
    ]
}

#[test]
fn the_shipped_game_shows_no_hidden_information() {
    let out = watergate_in(Path::new("."), &["check"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn an_editor_card_choosing_by_colour_among_face_down_tokens_is_warned_of_at_the_call() {
    // The shipped card asks for `face: "up"`; without it the choice would
    // list the face-down green tokens, whose colour the Editor may not see.
    let w = warnings_with(
        "rose-mary",
        ROSE_MARY,
        "// edited\npin_track_evidence(#{ colour: \"green\" });\n",
    );
    assert_eq!(
        w,
        rose_mary_green_warning(2, "pin_track_evidence(#{ colour: \"green\" });")
    );
    // `face: "down"` too, and in a script that reads the game (found in the
    // script's text, not in one run's program), at the call's column.
    let w = warnings_with(
        "rose-mary-down",
        ROSE_MARY,
        "if round() > 2 { move_evidence(1, #{ face: \"down\", colour: \"blue\" }) }\n",
    );
    assert_eq!(w.len(), 3, "the warning and its line: {w:?}");
    assert_eq!(w[2], format!("      | {}^", " ".repeat(17)), "{w:?}");
    assert!(
        w[0].starts_with(
            "warning: mydata/scripts/editor/the_rose_mary_stretch.rhai:1:18: `move_evidence` with colour \"blue\""
        ),
        "{w:?}"
    );
}

#[test]
fn a_choice_that_hides_nothing_is_not_warned_of() {
    // Face-up tokens by colour (what the shipped card does), any token without
    // a colour, and board evidence, which both players may look at (R5.14).
    let w = warnings_with(
        "rose-mary-fine",
        ROSE_MARY,
        "pin_track_evidence(#{ face: \"up\", colour: \"green\" });\n\
         move_evidence(1, #{ face: \"any\" });\n\
         return_board_evidence_to_bag(#{ colour: \"blue\" });\n",
    );
    assert_eq!(w, Vec::<String>::new());
    // Nixon may look at the face-down evidence whenever he likes (R4.3).
    let w = warnings_with(
        "liddy-colour",
        "nixon/gordon_liddy.rhai",
        "return_track_evidence_to_bag(#{ colour: \"yellow\" });\n",
    );
    assert_eq!(w, Vec::<String>::new());
}

#[test]
fn a_card_choosing_from_the_opponents_hand_is_warned_of() {
    let w = warnings_with(
        "colson-hand",
        "nixon/chuck_colson.rhai",
        "choose_card(#{ owner: \"opponent\", prompt: \"Look at her hand\" }, || {});\n\
         choose_card(#{ owner: \"opponent\", zone: \"discard\" }, || {});\n",
    );
    assert_eq!(
        w,
        vec![
            "warning: mydata/scripts/nixon/chuck_colson.rhai:1:1: `choose_card` lists the \
             Editor's hand to Nixon (Chuck Colson), who may not see it (R5.14); fine if the \
             card means to let them look"
                .to_string(),
            "    1 | choose_card(#{ owner: \"opponent\", prompt: \"Look at her hand\" }, || {});"
                .to_string(),
            "      | ^".to_string(),
        ]
    );
}

/// Options built while the script runs are seen when it runs: at load for
/// a script that does not read the game (it runs once there), and in the
/// states `check --deep` plays for one that does.
#[test]
fn options_built_at_run_time_are_warned_of_once_the_script_ran_with_them() {
    let w = warnings_with(
        "rose-mary-built",
        ROSE_MARY,
        "let options = #{ face: \"up\" };\noptions.face = \"any\";\noptions.colour = \"green\";\n\
         pin_track_evidence(options);\n",
    );
    assert_eq!(
        w,
        rose_mary_green_warning(4, "pin_track_evidence(options);")
    );

    // Chuck Colson looks at the Editor's hand from round 2 on: the run at
    // load (round 1) does not build those options, the deep check's games do.
    let colson = "let options = #{};\n\
                  if round() >= 2 { options.owner = \"opponent\"; }\n\
                  choose_card(options, || {});\n";
    let (_, w) = check_with("colson-late", "nixon/chuck_colson.rhai", colson, &[]);
    assert_eq!(w, Vec::<String>::new());
    let (out, w) = check_with(
        "colson-late-deep",
        "nixon/chuck_colson.rhai",
        colson,
        &["--deep", "-n", "100", "-q"],
    );
    assert!(
        out.contains("\n  1 warning found when the scripts ran (on stderr)\n"),
        "{out}"
    );
    assert_eq!(
        w,
        vec![
            "warning: mydata/scripts/nixon/chuck_colson.rhai:3:1: `choose_card` lists the \
             Editor's hand to Nixon (Chuck Colson), who may not see it (R5.14); fine if the \
             card means to let them look"
                .to_string(),
            "    3 | choose_card(options, || {});".to_string(),
            "      | ^".to_string(),
        ]
    );
}

/// `print` and `debug` in a card script show nothing (the sandbox sends
/// their text nowhere: it would mix with the reports). A designer who
/// writes one to see a value is told so at the call, even inside a branch
/// that only runs in some states.
#[test]
fn a_script_that_prints_is_told_its_text_goes_nowhere() {
    let w = warnings_with(
        "print",
        "nixon/gordon_liddy.rhai",
        "print(card.value);\nif round() > 9 { debug(\"late\") }\nreturn_track_evidence_to_bag(#{ face: \"up\" });\n",
    );
    let at: Vec<&String> = w.iter().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(at.len(), 2, "{w:?}");
    assert!(
        at[0].starts_with(
            "warning: mydata/scripts/nixon/gordon_liddy.rhai:1:1: `print` shows nothing: a card \
             script's only output is its effects"
        ),
        "{}",
        at[0]
    );
    assert!(
        at[1].starts_with(
            "warning: mydata/scripts/nixon/gordon_liddy.rhai:2:18: `debug` shows nothing"
        ),
        "{}",
        at[1]
    );
}
