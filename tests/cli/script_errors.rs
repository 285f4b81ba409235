//! A card script that fails only in some states of the game (R5.9: an
//! action is its script's effects, carried out in the state of the play).
//! `check --deep` finds it at check time, with the script's path:line:col,
//! the card and a command that reaches the state again; every command that
//! runs into it blames the script and exits with code 3.

use crate::common::cli::watergate_in;
use crate::common::temp::TempFolder;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A path of this test's own named for `name`, with nothing there yet
/// (removed when dropped).
fn fresh_dir(name: &str) -> TempFolder {
    TempFolder::unmade(&format!("watergate-script-errors-{name}"))
}

/// A fresh folder holding `mydata/`, the shipped game exported.
fn exported_game(name: &str) -> TempFolder {
    crate::common::cli::exported_game(&format!("script-errors-{name}"))
}

/// A folder holding `mydata/`, the exported game with Deep Throat's script
/// edited to fail from round `from` on (a colour that does not exist).
fn edited_game(name: &str, from: u32) -> TempFolder {
    let dir = exported_game(name);
    let script = dir.join("mydata/scripts/editor/deep_throat.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let edit = format!("if round() >= {from} {{ move_evidence(1, #{{ colour: \"purple\" }}) }}");
    lines.insert(2, &edit);
    std::fs::write(&script, lines.join("\n") + "\n").unwrap();
    dir
}

/// The error, at the edit's `move_evidence` call (column 19 after
/// `if round() >= 3 { `, 20 with a two-digit round).
const PURPLE: &str = "error: mydata/scripts/editor/deep_throat.rhai:3:19: card `Deep Throat`: colour must be \"blue\", \"yellow\" or \"green\", got \"purple\"";
const PURPLE_14: &str = "error: mydata/scripts/editor/deep_throat.rhai:3:20: card `Deep Throat`: colour must be \"blue\", \"yellow\" or \"green\", got \"purple\"";

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The arguments of the `reproduce: watergate …` line.
fn reproduce_args(err: &str) -> Vec<String> {
    let line = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce: watergate "))
        .unwrap_or_else(|| panic!("no reproduce line in:\n{err}"));
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn plain_check_misses_the_state_dependent_branch_and_deep_check_finds_it() {
    let dir = edited_game("deep", 3);
    // Loading runs the script once, in round 1: the branch is not taken.
    assert!(watergate_in(&dir, &["check", "--data", "mydata"])
        .status
        .success());
    let out = watergate_in(
        &dir,
        &["check", "--data", "mydata", "--deep", "--games", "40"],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().next(), Some(PURPLE), "{err}");
    assert!(err.contains("first in game "), "{err}");
    assert!(err.contains("1 card script failure"), "{err}");
    // The command it gives reaches the same failure, alone.
    let args = reproduce_args(&err);
    assert_eq!(args[..3], ["simulate", "--data", "mydata"]);
    assert!(args.contains(&"--games".to_string()) && args.contains(&"1".to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let again = watergate_in(&dir, &args);
    assert_eq!(again.status.code(), Some(3));
    assert_eq!(stderr(&again).lines().next(), Some(PURPLE));
    assert!(stderr(&again).contains("in game 0 of `mydata/`"));
    // Both name the same game by its game seed, and the deep check says the
    // command plays it as game 0 (it said "game 1" against the command's 0).
    let seed_of = |text: &str| {
        let at = text.find("game seed ").expect("a game seed") + "game seed ".len();
        text[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .to_string()
    };
    assert!(err.contains("(game 0 of the reproduce command)"), "{err}");
    assert_eq!(seed_of(&err), seed_of(&stderr(&again)), "{err}");
}

#[test]
fn simulate_blames_the_script_not_the_engine() {
    let dir = edited_game("simulate", 3);
    for agents in [["random", "random"], ["heuristic", "heuristic"]] {
        let out = watergate_in(
            &dir,
            &[
                "simulate", "--data", "mydata", "--games", "50", "--editor", agents[0], "--nixon",
                agents[1],
            ],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert_eq!(err.lines().next(), Some(PURPLE), "{err}");
        assert!(!err.contains("invariant"), "{err}");
        // The line of the script, with a caret under the failing call.
        assert!(err.contains("3 | if round() >= 3"), "{err}");
        fails_again(&dir, &err);
    }
}

#[test]
fn a_failure_only_a_scenario_reaches_is_found_in_that_scenario() {
    // Round 14 or later: random games hardly get there; the scenario does.
    let dir = edited_game("scenario", 14);
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    let scenario = r#"Scenario(
    name: "Deep Throat late in the game",
    data: Some("../mydata"),
    position: Some((
        round: 14,
        pictures: [(name: "Woods", face_up: false)],
        hands: (
            editor: ["editor.deep_throat", "editor.recruit_dean"],
            nixon: ["nixon.secure_woods", "nixon.secure_dean"],
        ),
    )),
    play: ["deep_throat action"],
)
"#;
    std::fs::write(dir.join("scenarios/late.ron"), scenario).unwrap();
    let out = watergate_in(
        &dir,
        &["check", "--data", "mydata", "--deep", "--games", "5"],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(err.lines().next(), Some(PURPLE_14), "{err}");
    assert!(
        err.contains("first in scenarios/late.ron, at play[0] `deep_throat action`"),
        "{err}"
    );
    let args = reproduce_args(&err);
    assert_eq!(args, ["scenario", "--data", "mydata", "scenarios/late.ron"]);
    // `watergate scenario` on it blames the script too, exit 3.
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let again = watergate_in(&dir, &args);
    let err = stderr(&again);
    assert_eq!(again.status.code(), Some(3), "{err}");
    // `--data mydata` names the same folder as the scenario's `../mydata`,
    // and the command line's spelling is the one shown.
    assert_eq!(err.lines().next(), Some(PURPLE_14), "{err}");
    assert!(
        err.contains("while scenarios/late.ron played play[0] `deep_throat action`"),
        "{err}"
    );
    // Without the play list, `solve` searches into the failing play.
    let solve = scenario.replace("play: [\"deep_throat action\"],", "");
    std::fs::write(dir.join("scenarios/late.ron"), solve).unwrap();
    // Without --data, the scenario's own `data:` is the game, spelt its way.
    let scenario_path = PURPLE_14.replace("error: mydata/", "error: scenarios/../mydata/");
    let out = watergate_in(&dir, &["solve", "scenarios/late.ron", "--depth", "2"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().next(), Some(scenario_path.as_str()));
}

#[test]
fn the_shipped_game_passes_the_deep_check() {
    // From the repository: its scenarios are played too.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = watergate_in(repo, &["check", "--deep", "--games", "30"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}{}", text, stderr(&out));
    assert!(text.contains("no script failed"), "{text}");
    assert!(text.contains("scenario files played"), "{text}");
    // The scenarios of the repository fit the shipped game: none is left out
    // but the data file kept beside the variants.
    assert!(!text.contains("does not fit"), "{text}");
}

/// The late-game position of Deep Throat, with the edited data beside it.
fn late_position(dir: &Path) -> PathBuf {
    let file = dir.join("late.ron");
    std::fs::write(
        &file,
        r#"Scenario(
    name: "Deep Throat late in the game",
    data: Some("mydata"),
    position: Some((
        round: 14,
        pictures: [(name: "Woods", face_up: false)],
        hands: (
            editor: ["editor.deep_throat", "editor.recruit_dean"],
            nixon: ["nixon.secure_woods", "nixon.secure_dean"],
        ),
    )),
)
"#,
    )
    .unwrap();
    file
}

#[test]
fn a_failing_play_leaves_the_game_as_it_was() {
    use watergate::game::engine::notation::parse_choice;
    use watergate::game::engine::PlayError;
    let dir = edited_game("rollback", 14);
    let scn = watergate::formats::scenario::Scenario::from_file(&late_position(&dir)).unwrap();
    let r = scn.rules(&watergate::data::GameSource::shipped()).unwrap();
    let mut s = scn.start(&r).unwrap();
    let before = s.clone();
    let mut options = Vec::new();
    s.legal(&r, &mut options);
    let c = parse_choice(&r, &s, "deep_throat action", &options).unwrap();
    match s.apply(&r, c) {
        Err(PlayError::Script(e)) => {
            assert_eq!((e.line, e.col, e.card.as_str()), (3, 20, "Deep Throat"));
            assert!(e.script.ends_with("mydata/scripts/editor/deep_throat.rhai"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s, before);
}

#[test]
fn play_at_the_terminal_stops_before_the_failing_play_and_blames_the_script() {
    let dir = edited_game("play", 14);
    late_position(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .current_dir(&dir)
        .args([
            "play",
            "--scenario",
            "late.ron",
            "--as",
            "both",
            "--log",
            "game.log.ron",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"deep_throat action\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(err.lines().next(), Some(PURPLE_14), "{err}");
    // The log holds the game as it was before that choice: no choice yet.
    let log = std::fs::read_to_string(dir.join("game.log.ron")).unwrap();
    assert!(!log.contains("deep_throat action"), "{log}");
}

#[test]
fn a_replay_that_runs_into_the_failing_script_blames_it() {
    // Logged while the branch could not be taken (round 99 and later)…
    let dir = edited_game("replay", 99);
    late_position(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .current_dir(&dir)
        .args([
            "play",
            "--scenario",
            "late.ron",
            "--as",
            "both",
            "--log",
            "game.log.ron",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"deep_throat action\nquit\n")
        .unwrap();
    assert!(child.wait().unwrap().success());
    // …and replayed after an edit that fails from round 14 on.
    let script = dir.join("mydata/scripts/editor/deep_throat.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, text.replace(">= 99", ">= 14")).unwrap();
    let out = watergate_in(&dir, &["replay", "--data", "mydata", "game.log.ron"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.lines().any(|l| l == PURPLE_14), "{err}");
    assert!(
        err.contains("while game.log.ron replayed choice 1 `editor.deep_throat action`"),
        "{err}"
    );
}

#[test]
fn sweep_blames_the_failing_script_as_simulate_does() {
    let dir = edited_game("sweep", 3);
    let out = watergate_in(
        &dir,
        &[
            "sweep",
            "--data",
            "mydata",
            "--param",
            "card.gordon_liddy.value=1,2",
            "--games",
            "50",
        ],
    );
    let err = stderr(&out);
    // Exit 3 (the script), not 2 (bad usage), with the script's line and
    // the point and game it failed in.
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(err.lines().next(), Some(PURPLE), "{err}");
    assert!(err.contains("3 | if round() >= 3"), "{err}");
    assert!(
        err.contains("at card.gordon_liddy.value=1: in game "),
        "{err}"
    );
    // With the command that plays that game again and fails the same way
    // (a designer audit: the sweep gave none, simulate one).
    fails_again(&dir, &err);
}

/// Runs the `reproduce:` command of `err` in `dir`: it fails as the run did.
fn fails_again(dir: &Path, err: &str) {
    let again: Vec<String> = reproduce_args(err);
    let again: Vec<&str> = again.iter().map(String::as_str).collect();
    let out = watergate_in(dir, &again);
    assert_eq!(out.status.code(), Some(3), "{again:?}: {}", stderr(&out));
    assert_eq!(stderr(&out).lines().next(), Some(PURPLE), "{again:?}");
}

/// A folder holding `v/`: a variant that puts its own script `loopy.rhai`
/// in place of Gordon Liddy's, looping from round 2 on: soak fails on it
/// at once (also `reproducible_failures`).
pub(crate) fn variant_with_a_runaway_script(name: &str) -> TempFolder {
    let dir = fresh_dir(name);
    std::fs::create_dir_all(dir.join("v")).unwrap();
    std::fs::write(
        dir.join("v/loopy.rhai"),
        "// loops from round 2 on\nif round() >= 2 { loop {} }\nmove_momentum(1);\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("v/loopy.ron"),
        "Variant(name: \"loopy\", files: [(\"scripts/nixon/gordon_liddy.rhai\", \"loopy.rhai\")])\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_variants_script_that_fails_is_named_by_its_own_file_and_line() {
    let dir = variant_with_a_runaway_script("variant");
    let out = watergate_in(
        &dir,
        &["simulate", "--variant", "v/loopy.ron", "--games", "20"],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    // The variant's file, not the data slot it fills (which would show the
    // shipped script's line 2).
    assert!(
        err.starts_with("error: v/loopy.rhai:2:24: card `Gordon Liddy`: stopped by the sandbox"),
        "{err}"
    );
    assert!(err.contains("2 | if round() >= 2 { loop {} }"), "{err}");
    assert!(!err.contains("scripts/nixon/gordon_liddy.rhai"), "{err}");
}

#[test]
fn a_data_file_that_is_not_text_is_shown_with_no_other_files_line() {
    let dir = edited_game("not-text", 99);
    let card = dir.join("mydata/cards/nixon/10_gordon_liddy.ron");
    std::fs::write(&card, b"PlayerCard(\n  number: 10, \xff\xfe\n)\n").unwrap();
    let out = watergate_in(&dir, &["check", "--data", "mydata"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("mydata/cards/nixon/10_gordon_liddy.ron:2:15: not valid UTF-8 text"),
        "{err}"
    );
    // The shipped card file's line 2 is not the user's.
    assert!(!err.contains(" | "), "{err}");
}

/// R6, R5.12: only a reaction answers a play; Q7: a chosen card exists only
/// inside `choose_card`'s function. Calls that could do nothing are refused
/// when the game loads, at the call.
#[test]
fn calls_that_only_make_sense_elsewhere_are_refused_at_check() {
    let cases = [
        (
            "cancel_trigger(\"discard\");",
            "1:1: card `Gordon Liddy`: cancel_trigger: only a reaction card's script answers a play (R6)",
        ),
        (
            "move_trigger_token();",
            "1:1: card `Gordon Liddy`: move_trigger_token: only a reaction card's script answers a play (R6)",
        ),
        (
            "remove_chosen_card();",
            "1:1: card `Gordon Liddy`: remove_chosen_card: no card is chosen here; call it inside the function given to `choose_card`",
        ),
        (
            "perform_chosen_action();",
            "1:1: card `Gordon Liddy`: perform_chosen_action: no card is chosen here; call it inside the function given to `choose_card`",
        ),
    ];
    for (i, (call, expected)) in cases.iter().enumerate() {
        let dir = edited_game(&format!("misplaced-{i}"), 99);
        std::fs::write(
            dir.join("mydata/scripts/nixon/gordon_liddy.rhai"),
            format!("{call}\n"),
        )
        .unwrap();
        let out = watergate_in(&dir, &["check", "--data", "mydata"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{call}: {err}");
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!(
                "mydata/scripts/nixon/gordon_liddy.rhai:{expected}"
            )),
            "{call}: {err}"
        );
    }
    // Where they belong they are taken: the shipped reactions and Gambit.
    let dir = edited_game("misplaced-ok", 99);
    assert!(watergate_in(&dir, &["check", "--data", "mydata"])
        .status
        .success());
}

/// An exported game whose Bob Woodward and Carl Bernstein carry out the
/// script `text` (a new file both cards point at).
fn game_with_woodward_and_bernstein_doing(name: &str, text: &str) -> TempFolder {
    let dir = exported_game(name);
    std::fs::write(dir.join("mydata/scripts/editor/perform.rhai"), text).unwrap();
    for card in ["30_bob_woodward.ron", "31_carl_bernstein.ron"] {
        let path = dir.join("mydata/cards/editor").join(card);
        let ron = std::fs::read_to_string(&path).unwrap();
        let edited = ron
            .lines()
            .map(|l| {
                if l.trim_start().starts_with("script:") {
                    "    script: \"scripts/editor/perform.rhai\",".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert_ne!(ron.trim_end(), edited, "{card} names its script");
        std::fs::write(&path, edited + "\n").unwrap();
    }
    dir
}

/// Q7's "perform the chosen card's action" with no end: two cards that
/// perform each other from the hand nest without a decision between, and
/// one that performs itself from the discard pile nests as long as a
/// player chooses to (the heuristic always does). Each nested without end
/// (memory grew until the process aborted, or the game never finished);
/// now the performing card is named at its call once the nesting is 48
/// frames deep, and the command exits 3.
#[test]
fn a_card_that_performs_itself_without_end_is_stopped_and_named() {
    let mutual = game_with_woodward_and_bernstein_doing(
        "perform-mutual",
        "choose_card(#{zone: \"hand\"}, || { perform_chosen_action(); });\n",
    );
    let o = watergate_in(
        &mutual,
        &["simulate", "--data", "mydata", "-n", "200", "-j", "1", "-q"],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("mydata/scripts/editor/perform.rhai:1:")
            && err.contains("`perform_chosen_action` nested 48 deep"),
        "{err}"
    );
    assert!(
        err.contains("card `Bob Woodward`") || err.contains("card `Carl Bernstein`"),
        "{err}"
    );

    let reprise = game_with_woodward_and_bernstein_doing(
        "perform-reprise",
        "choose_card(#{zone: \"discard\", owner: \"me\", usable: true, optional: true}, || { perform_chosen_action(); });\n",
    );
    let o = watergate_in(
        &reprise,
        &[
            "simulate",
            "--data",
            "mydata",
            "-n",
            "1",
            "-s",
            "2",
            "-j",
            "1",
            "-q",
            "--editor",
            "heuristic",
            "--nixon",
            "random",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("`perform_chosen_action` nested 48 deep"),
        "{err}"
    );
}

/// R1.3's track made shorter than a card's script reaches: the script is
/// where the game fails to load, and its message names the setting that
/// made the space too far (`track_length`, in cards/game.ron), not only
/// `LAST_SPACE`.
#[test]
fn a_track_too_short_for_a_script_names_the_setting() {
    let dir = exported_game("short-track");
    let game = dir.join("mydata/cards/game.ron");
    let text = std::fs::read_to_string(&game).unwrap();
    let at = text
        .find("track_length: 5")
        .expect("the shipped track length");
    let edited = format!("{}track_length: 1{}", &text[..at], &text[at + 15..]);
    std::fs::write(&game, edited).unwrap();
    let out = watergate_in(&dir, &["check", "--data", "mydata"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "mydata/scripts/editor/bob_woodward.rhai:2:1: card `Bob Woodward`: a track space \
             must be between 0 and 1 (LAST_SPACE: the game's `track_length`, 1 in \
             cards/game.ron or the variant), got 2"
        ),
        "{err}"
    );
}
