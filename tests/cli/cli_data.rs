//! Where the game comes from, end to end: every subcommand that loads a game
//! is run on an edited copy (`--data`) and on a variant (`--variant`) and
//! must show the edit in its output; each refuses a missing or broken game
//! with exit 2 naming the problem; a command that loads no game refuses both
//! flags. Then the one rule that combines the command line with a
//! scenario's own `data:`/`variant:`.
//!
//! The edit: Gordon Liddy's value 3 → 1, his script also moves the momentum
//! token 1 step, and the game is renamed. In the position of `liddy.ron`
//! (Nixon to move, 4 momentum tokens on his card, the momentum token on N2,
//! Liddy his only card) the shipped Liddy wins at once for his value (R5.3:
//! 3 steps take the token to N5, R5.8, the fifth momentum token, R8.1); the
//! edited one cannot.

use crate::common::temp::TempFolder;
use clap::CommandFactory;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn watergate(args: &[String], stdin: &str, cwd: &Path) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("the binary ends")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A fresh folder for one test.
fn temp_dir(name: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-cli-data-{name}"))
}

const LIDDY: &str = r#"Scenario(
    name: "Liddy's value decides",
    position: Some((
        round: 1,
        initiative: Nixon,
        turn: Some(Nixon),
        initiative_token: "0",
        momentum_token: "N2",
        momentum_cards: (editor: 0, nixon: 4),
        hands: (editor: ["editor.bob_woodward"], nixon: ["nixon.gordon_liddy"]),
        unlisted_cards: Removed,
    )),
    PLAY
)
"#;

const EDITED_SCRIPT: &str = "return_track_evidence_to_bag(#{ face: \"up\" });\nmove_momentum(1);\n";

/// The workshop: scenarios, an edited copy `ed/`, the same edit as a
/// variant `edited.ron`, a broken copy and a broken variant.
fn workshop(name: &str) -> TempFolder {
    let dir = temp_dir(name);
    std::fs::write(dir.join("liddy.ron"), LIDDY.replace("PLAY", "")).unwrap();
    std::fs::write(
        dir.join("liddy_played.ron"),
        LIDDY.replace("PLAY", r#"play: ["nixon.gordon_liddy value", "momentum"],"#),
    )
    .unwrap();
    std::fs::write(
        dir.join("liddy_puzzle.ron"),
        LIDDY.replace(
            "PLAY",
            r#"puzzle: Some((side: Nixon, wins: true, goal: "Nixon to play and win at once.", depth: Some(2))),"#,
        ),
    )
    .unwrap();
    let out = watergate(&["export".into(), "ed".into()], "", &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let edit = |rel: &str, from: &str, to: &str| {
        let path = dir.join("ed").join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{rel} has no `{from}`");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    edit("cards/nixon/10_gordon_liddy.ron", "value: 3,", "value: 1,");
    edit(
        "cards/game.ron",
        r#"name: "Watergate (base game)""#,
        r#"name: "Watergate (edited)""#,
    );
    std::fs::write(
        dir.join("ed/scripts/nixon/gordon_liddy.rhai"),
        EDITED_SCRIPT,
    )
    .unwrap();

    std::fs::write(dir.join("liddy.rhai"), EDITED_SCRIPT).unwrap();
    std::fs::write(
        dir.join("edited.ron"),
        r#"Variant(
    name: "edited",
    cards: [(id: "nixon.gordon_liddy", value: 1)],
    files: [("scripts/nixon/gordon_liddy.rhai", "liddy.rhai")],
)
"#,
    )
    .unwrap();

    let out = watergate(&["export".into(), "broken".into()], "", &dir);
    assert!(out.status.success());
    std::fs::write(
        dir.join("broken/scripts/nixon/gordon_liddy.rhai"),
        "move_momentum(1;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("broken.ron"),
        "Variant(\n    name: \"broken\",\n    cards: [(id: \"nixon.gordon_lidy\", value: 1)],\n)\n",
    )
    .unwrap();
    dir
}

/// What a case's check sees: where it ran and what game it was given.
struct Ctx<'a> {
    dir: &'a Path,
    /// The game's data fingerprint, as `simulate --json` reports it.
    fingerprint: String,
    /// How commands name the game.
    label: String,
    /// The export folder of this run.
    out: PathBuf,
}

/// One subcommand: its arguments (`{game}` stands for the game flags,
/// `{out}` for a fresh output folder), its input, whether it is cheap
/// enough to run on the shipped game too, and what shows the edit.
struct Case {
    command: &'static str,
    args: &'static str,
    stdin: &'static str,
    compare_with_shipped: bool,
    shows_edit: fn(&Output, &Ctx) -> bool,
}

fn line_with<'a>(text: &'a str, needle: &str) -> &'a str {
    text.lines().find(|l| l.contains(needle)).unwrap_or("")
}

const CASES: &[Case] = &[
    Case {
        command: "check",
        args: "check {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, _| o.status.success() && stdout(o).contains("edited"),
    },
    Case {
        command: "cards",
        args: "cards {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, _| {
            let text = stdout(o);
            line_with(&text, "Gordon Liddy").split_whitespace().nth(3) == Some("1")
        },
    },
    Case {
        command: "export",
        args: "export {game} {out}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, c| {
            let card = std::fs::read_to_string(c.out.join("cards/nixon/10_gordon_liddy.ron"))
                .unwrap_or_default();
            let script = std::fs::read_to_string(c.out.join("scripts/nixon/gordon_liddy.rhai"))
                .unwrap_or_default();
            o.status.success() && card.contains("value: 1,") && script == EDITED_SCRIPT
        },
    },
    Case {
        command: "script-api",
        args: "script-api {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, _| {
            line_with(&stdout(o), "| `move_momentum` |").contains("scripts/nixon/gordon_liddy.rhai")
        },
    },
    Case {
        command: "diff",
        args: "diff {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, _| {
            let t = stdout(o);
            t.contains("card nixon.gordon_liddy") && t.contains("value: 3 → 1")
        },
    },
    Case {
        command: "scenario",
        args: "scenario liddy_played.ron --json {game}",
        stdin: "",
        compare_with_shipped: true,
        // Shipped: Nixon has won; edited: the Editor is to move.
        shows_edit: |o, _| {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
            o.status.success() && v["outcome"].is_null() && v["to_move"] == "editor"
        },
    },
    Case {
        command: "mine",
        args: "mine --games 1 --agents heuristic --tries 1 --out {out} {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, c| o.status.success() && stdout(o).contains(&format!("game: {}", c.label)),
    },
    Case {
        command: "solve",
        args: "solve liddy.ron --depth 2 {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, _| stdout(o).contains("Nixon cannot force a win within 2 decisions"),
    },
    Case {
        command: "puzzle",
        args: "puzzle liddy_puzzle.ron {game}",
        stdin: "hint\nquit\n",
        compare_with_shipped: true,
        // Shipped: Liddy's 3 wins at once, and the hint says so; edited: his 1 does not.
        shows_edit: |o, _| stdout(o).contains("no move forces the win from here"),
    },
    Case {
        command: "play",
        args: "play --scenario liddy_played.ron --ai random --log - {game}",
        stdin: "quit\n",
        compare_with_shipped: true,
        // Shipped: refused, the game is over there; edited: play goes on.
        shows_edit: |o, _| o.status.success() && stdout(o).contains("Playing on from the position"),
    },
    Case {
        command: "replay",
        args: "replay game.log.ron {game}",
        stdin: "",
        // The log names the game it was played on, so a replay without the
        // flags plays on it too (`replay_rules.rs`), not on the shipped one.
        compare_with_shipped: false,
        // The log was written with the edited game: no warning that the data differ.
        shows_edit: |o, _| {
            o.status.success()
                && stdout(o).contains("The replay ends as the log records")
                && !stderr(o).contains("other game data")
        },
    },
    Case {
        command: "simulate",
        args: "simulate --games 20 --seed 3 --threads 1 --json {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, c| {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
            v["run"]["data_fingerprint"] == c.fingerprint.as_str()
        },
    },
    Case {
        command: "sweep",
        args: "sweep --param card.nixon.gordon_liddy.steps=1 -n 4 --editor random --nixon random --json {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, c| {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
            v["sweep"]["key"]["game"] == c.label.as_str()
        },
    },
    Case {
        command: "ladder",
        args: "ladder --agents random,heuristic -n 2 --json {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, c| {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
            v["game"] == c.label.as_str()
        },
    },
    Case {
        command: "soak",
        args: "soak --games 3 --threads 1 {game}",
        stdin: "",
        compare_with_shipped: true,
        shows_edit: |o, c| o.status.success() && stdout(o).contains(&format!("game: {}", c.label)),
    },
    Case {
        command: "bench",
        args: "bench --quick {game}",
        stdin: "",
        compare_with_shipped: false,
        shows_edit: |o, c| o.status.success() && stdout(o).contains(&format!("game: {}", c.label)),
    },
];

/// Commands that load no game, and so refuse `--data` and `--variant`.
const NO_GAME: &[&str] = &["merge"];

/// Commands that run until stopped: they load their game before anything
/// else (a missing one exits 2, checked below), and the edit is
/// shown over HTTP by their own tests (`serve`: tests/studio/studio_play.rs).
const SERVERS: &[&str] = &["serve"];

fn args_of(template: &str, game: &[&str], out: &Path) -> Vec<String> {
    let mut v = Vec::new();
    for word in template.split_whitespace() {
        match word {
            "{game}" => v.extend(game.iter().map(|s| s.to_string())),
            "{out}" => v.push(out.display().to_string()),
            w => v.push(w.to_string()),
        }
    }
    v
}

#[test]
fn every_subcommand_is_in_the_table() {
    let mut listed: Vec<&str> = CASES.iter().map(|c| c.command).collect();
    listed.extend(NO_GAME);
    listed.extend(SERVERS);
    for sub in watergate::app::cli::Cli::command().get_subcommands() {
        let name = sub.get_name();
        let takes_data = sub.get_arguments().any(|a| a.get_id() == "data");
        assert!(
            listed.contains(&name),
            "`watergate {name}` has no row in tests/cli/cli_data.rs"
        );
        assert_eq!(
            takes_data,
            !NO_GAME.contains(&name),
            "`watergate {name}`: --data is accepted exactly by the commands that load a game"
        );
    }
}

fn run_table(name: &str, game: fn(&Path) -> Vec<String>, label: fn(&Path) -> String) {
    let dir = workshop(name);
    let flags = game(&dir);
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    // The log `replay` reads, written with the game under test.
    let mut args = args_of(
        "play --scenario liddy.ron --as both --log game.log.ron {game}",
        &flags,
        &dir,
    );
    let out = watergate(&args, "1\n1\nquit\n", &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    args.clear();

    let source = watergate::data::GameSource {
        data: flags
            .iter()
            .position(|f| *f == "--data")
            .map(|i| dir.join(flags[i + 1])),
        variant: flags
            .iter()
            .position(|f| *f == "--variant")
            .map(|i| dir.join(flags[i + 1])),
    };
    let fingerprint = format!("{:016x}", source.dataset().unwrap().fingerprint());
    let mut failures = Vec::new();
    for (i, case) in CASES.iter().enumerate() {
        let out_dir = dir.join(format!("out{i}"));
        let ctx = Ctx {
            dir: &dir,
            fingerprint: fingerprint.clone(),
            label: label(&dir),
            out: out_dir.clone(),
        };
        let o = watergate(&args_of(case.args, &flags, &out_dir), case.stdin, &dir);
        if !(case.shows_edit)(&o, &ctx) {
            failures.push(format!(
                "`{}` with {flags:?} does not show the edit (exit {:?}):\n{}\n{}",
                case.args,
                o.status.code(),
                stdout(&o),
                stderr(&o)
            ));
        }
        if case.compare_with_shipped {
            let shipped_dir = dir.join(format!("shipped{i}"));
            let ctx = Ctx {
                out: shipped_dir.clone(),
                ..ctx
            };
            let o = watergate(&args_of(case.args, &[], &shipped_dir), case.stdin, ctx.dir);
            if (case.shows_edit)(&o, &ctx) {
                failures.push(format!(
                    "`{}` on the shipped game passes the check meant to show the edit: the test cannot fail",
                    case.args
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_command_plays_the_edited_copy_it_is_given() {
    run_table(
        "data",
        |_| vec!["--data".into(), "ed".into()],
        |_| "`ed`".into(),
    );
}

#[test]
fn every_command_plays_the_variant_it_is_given() {
    run_table(
        "variant",
        |_| vec!["--variant".into(), "edited.ron".into()],
        |_| "the shipped game with variant `edited.ron`".into(),
    );
}

#[test]
fn every_command_refuses_a_missing_or_broken_game_with_exit_2() {
    let dir = workshop("broken");
    let mut failures = Vec::new();
    for case in CASES {
        for (flags, names) in [
            (["--data", "/nonexistent"], "/nonexistent"),
            (["--data", "broken"], "gordon_liddy.rhai:1:"),
            (["--variant", "broken.ron"], "broken.ron:3:"),
        ] {
            let out = dir.join("refused");
            let o = watergate(&args_of(case.args, &flags, &out), case.stdin, &dir);
            if o.status.code() != Some(2) || !stderr(&o).contains(names) {
                failures.push(format!(
                    "`{}` with {flags:?}: exit {:?}, stderr:\n{}",
                    case.args,
                    o.status.code(),
                    stderr(&o)
                ));
            }
            assert!(
                !out.exists(),
                "`{}` wrote output for a broken game",
                case.args
            );
        }
    }
    for command in SERVERS {
        // A folder whose problems all lie in its card and script files
        // opens the studio instead, to mend them in its workbench
        // (tests/studio/studio_pages.rs); one that lacks a file does not.
        std::fs::create_dir_all(dir.join("lacking")).unwrap();
        for (flags, names) in [
            (["--data", "/nonexistent"], "/nonexistent"),
            (["--data", "lacking"], "lacking"),
            (["--variant", "broken.ron"], "broken.ron:3:"),
        ] {
            let mut args = vec![command.to_string(), "--port".into(), "0".into()];
            args.extend(flags.iter().map(|f| f.to_string()));
            let o = watergate(&args, "", &dir);
            if o.status.code() != Some(2) || !stderr(&o).contains(names) {
                failures.push(format!(
                    "`{command}` with {flags:?}: exit {:?}, stderr:\n{}",
                    o.status.code(),
                    stderr(&o)
                ));
            }
        }
    }
    for command in NO_GAME {
        for flag in ["--data", "--variant"] {
            let o = watergate(&[command.to_string(), flag.into(), "ed".into()], "", &dir);
            if o.status.code() != Some(2) || !stderr(&o).contains("unexpected argument") {
                failures.push(format!("`{command} {flag}` is not refused: {}", stderr(&o)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A scenario file like `liddy.ron` with its own `data:`/`variant:` lines.
fn scenario_with(dir: &Path, name: &str, own: &str) -> String {
    let text =
        LIDDY
            .replace("PLAY", "")
            .replacen("    name: ", &format!("    {own}\n    name: "), 1);
    std::fs::write(dir.join(name), text).unwrap();
    name.to_string()
}

fn solve(dir: &Path, file: &str, flags: &[&str]) -> Output {
    let mut args = vec![
        "solve".to_string(),
        file.to_string(),
        "--depth".into(),
        "2".into(),
    ];
    args.extend(flags.iter().map(|s| s.to_string()));
    watergate(&args, "", dir)
}

#[test]
fn a_scenario_data_and_the_command_line_data_must_agree() {
    let dir = workshop("rule-data");
    let scn = scenario_with(&dir, "own_data.ron", r#"data: "ed","#);
    // Its own data alone, or the same folder named both ways: the edited game.
    for flags in [&[][..], &["--data", "ed"], &["--data", "./ed/"]] {
        let o = solve(&dir, &scn, flags);
        assert!(
            stdout(&o).contains("Nixon cannot force a win"),
            "{flags:?}: {}{}",
            stdout(&o),
            stderr(&o)
        );
    }
    // Another folder on the command line: an error naming both, never a choice.
    let o = solve(&dir, &scn, &["--data", "broken"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("own_data.ron:2:") && err.contains("`ed`") && err.contains("--data broken"),
        "{err}"
    );
}

#[test]
fn variants_apply_command_line_first_then_the_scenario_s_own() {
    let dir = workshop("rule-variant");
    let value = |v: u8| {
        format!("Variant(name: \"liddy {v}\", cards: [(id: \"nixon.gordon_liddy\", value: {v})])\n")
    };
    std::fs::write(dir.join("one.ron"), value(1)).unwrap();
    std::fs::write(dir.join("three.ron"), value(3)).unwrap();
    let says_one = scenario_with(&dir, "own_one.ron", r#"variant: "one.ron","#);
    let says_three = scenario_with(&dir, "own_three.ron", r#"variant: "three.ron","#);
    // The scenario's own variant is the more specific: it applies last.
    let o = solve(&dir, &says_three, &["--variant", "one.ron"]);
    assert!(
        stdout(&o).contains("Nixon can force a win"),
        "{}",
        stderr(&o)
    );
    let o = solve(&dir, &says_one, &["--variant", "three.ron"]);
    assert!(
        stdout(&o).contains("Nixon cannot force a win"),
        "{}",
        stderr(&o)
    );
    // A command-line variant on top of a scenario's data.
    let own_data = scenario_with(&dir, "own_data.ron", r#"data: "ed","#);
    let o = solve(&dir, &own_data, &["--variant", "three.ron"]);
    assert!(
        stdout(&o).contains("Nixon can force a win"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn play_honours_a_scenario_s_own_variant() {
    let dir = workshop("rule-play");
    std::fs::write(
        dir.join("one.ron"),
        "Variant(name: \"liddy 1\", cards: [(id: \"nixon.gordon_liddy\", value: 1)])\n",
    )
    .unwrap();
    let text = LIDDY
        .replace("PLAY", r#"play: ["nixon.gordon_liddy value", "momentum"],"#)
        .replacen("    name: ", "    variant: \"one.ron\",\n    name: ", 1);
    std::fs::write(dir.join("played_one.ron"), text).unwrap();
    // With the variant Liddy's 1 step does not win, so there is a game to play on.
    let o = watergate(
        &[
            "play".into(),
            "--scenario".into(),
            "played_one.ron".into(),
            "--ai".into(),
            "random".into(),
            "--log".into(),
            "-".into(),
        ],
        "quit\n",
        &dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A position saved from a game keeps the rules the game was played with:
/// `scenario --save` and the terminal's `save` write the data and the
/// variant into the saved file, so it loads with them and not silently
/// with the built-in game. (Liddy's value decides the puzzle: 3 wins for
/// Nixon at once, 1 does not.)
#[test]
fn a_saved_position_keeps_the_data_and_the_variant_it_was_played_with() {
    let dir = workshop("save-origin");
    std::fs::write(
        dir.join("one.ron"),
        "Variant(name: \"liddy 1\", cards: [(id: \"nixon.gordon_liddy\", value: 1)])\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    let save = |scn: &str, flags: &[&str], to: &str| {
        let mut args = vec!["scenario".to_string(), scn.to_string()];
        args.extend(flags.iter().map(|s| s.to_string()));
        args.extend(["--save".to_string(), to.to_string()]);
        let o = watergate(&args, "", &dir);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        o
    };
    let cannot = |file: &str| {
        let o = solve(&dir, file, &[]);
        assert!(
            stdout(&o).contains("Nixon cannot force a win"),
            "{file} lost its rules: {}{}",
            stdout(&o),
            stderr(&o)
        );
    };
    // The built-in game: Nixon wins at once; the puzzle is only different
    // with the variant or the edited data.
    let o = solve(&dir, "liddy.ron", &[]);
    assert!(
        stdout(&o).contains("Nixon can force a win"),
        "{}",
        stderr(&o)
    );

    // --variant, saved beside it (a relative path) and elsewhere.
    save("liddy.ron", &["--variant", "one.ron"], "here.ron");
    let here = std::fs::read_to_string(dir.join("here.ron")).unwrap();
    assert!(here.contains(r#"variant: "one.ron""#), "{here}");
    cannot("here.ron");
    save("liddy.ron", &["--variant", "one.ron"], "saves/away.ron");
    cannot("saves/away.ron");
    // --data, and a scenario's own data.
    save("liddy.ron", &["--data", "ed"], "saves/data.ron");
    cannot("saves/data.ron");
    let own = scenario_with(&dir, "own_data.ron", r#"data: "ed","#);
    save(&own, &[], "saves/own_data.ron");
    cannot("saves/own_data.ron");
    // Two variants cannot both be named: the user hears how to load it.
    std::fs::write(
        dir.join("three.ron"),
        "Variant(name: \"liddy 3\", cards: [(id: \"nixon.gordon_liddy\", value: 3)])\n",
    )
    .unwrap();
    let three = scenario_with(&dir, "own_three.ron", r#"variant: "three.ron","#);
    let o = save(&three, &["--variant", "one.ron"], "saves/two.ron");
    assert!(
        stderr(&o).contains("two variants") && stderr(&o).contains("--variant"),
        "{}",
        stderr(&o)
    );

    // The terminal's `save`, in a game played with --variant.
    let o = watergate(
        &[
            "play".into(),
            "--scenario".into(),
            "liddy.ron".into(),
            "--variant".into(),
            "one.ron".into(),
            "--as".into(),
            "both".into(),
            "--log".into(),
            "-".into(),
        ],
        "save saves/played.ron\nquit\n",
        &dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Saved the position"), "{}", stdout(&o));
    cannot("saves/played.ron");
}

#[test]
fn diff_lists_exactly_the_edits_and_nothing_for_an_unedited_copy() {
    let dir = workshop("diff");
    let run = |args: &[&str]| {
        watergate(
            &args.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "",
            &dir,
        )
    };
    let o = run(&["diff", "--data", "ed", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // The games' names are data, not Markdown: no backticks around a path.
    assert_eq!(
        (&v["from"], &v["to"]),
        (
            &serde_json::json!("the shipped game"),
            &serde_json::json!("ed")
        )
    );
    let found: Vec<(String, String, String)> = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (s("kind"), s("thing"), s("field"))
        })
        .collect();
    let want = |k: &str, t: &str, f: &str| (k.to_string(), t.to_string(), f.to_string());
    assert_eq!(
        found,
        vec![
            want("field", "game", "name"),
            want("field", "card nixon.gordon_liddy", "value"),
            want("text", "script scripts/nixon/gordon_liddy.rhai", ""),
        ]
    );
    let script = v["differences"][2]["unified"].as_str().unwrap();
    assert!(script.contains("\n+move_momentum(1);\n"), "{script}");

    // The variant making the same card and script edits differs from the
    // edited copy only in the game's name (which the variant leaves).
    let o = run(&["diff", "--from", "ed", "--variant", "edited.ron"]);
    let text = stdout(&o);
    assert!(
        text.contains("  name: \"Watergate (edited)\" → \"Watergate (base game)\"\n")
            && text.ends_with("1 difference\n"),
        "{text}"
    );

    // An unedited copy: no differences, exit 0.
    let o = run(&["export", "copy"]);
    assert!(o.status.success());
    let o = run(&["diff", "--data", "copy"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "no differences between the shipped game and `copy`\n"
    );
    // A momentum card's space is named by its place in the file (from 0)
    // and by its number (from 1), as the card, the rules and scripts count.
    let card = dir.join("copy/cards/momentum/01_nixon_administration.ron");
    let ron = std::fs::read_to_string(&card).unwrap();
    std::fs::write(&card, ron.replace("\"End of term\"", "\"End of the term\"")).unwrap();
    let text = stdout(&run(&["diff", "--data", "copy"]));
    assert!(
        text.contains("  spaces[4].title (space 5): \"End of term\" → \"End of the term\"\n"),
        "{text}"
    );
    // A script only one game has is shown whole, as its change: `+`
    // lines for one added, `-` lines for one removed (text and JSON).
    std::fs::write(
        dir.join("copy/scripts/nixon/spare.rhai"),
        "// A spare script.\nmove_momentum(1);\n",
    )
    .unwrap();
    let text = stdout(&run(&["diff", "--data", "copy"]));
    assert!(
        text.contains(
            "added script scripts/nixon/spare.rhai\n  +// A spare script.\n  +move_momentum(1);\n"
        ),
        "{text}"
    );
    let text = stdout(&run(&["diff", "--data", "ed", "--from", "copy"]));
    assert!(
        text.contains("removed script scripts/nixon/spare.rhai\n  -// A spare script.\n"),
        "{text}"
    );
    let v: serde_json::Value =
        serde_json::from_slice(&run(&["diff", "--data", "copy", "--json"]).stdout).unwrap();
    let added = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "added")
        .unwrap();
    assert_eq!(added["text"], "// A spare script.\nmove_momentum(1);\n");
    std::fs::remove_file(dir.join("copy/scripts/nixon/spare.rhai")).unwrap();
    // A variant given to --from applies to the --data game, as
    // simulate's --against applies it (it applied to the shipped game):
    // the edited copy with the variant's same edits is the copy itself.
    let o = run(&["diff", "--data", "ed", "--from", "edited.ron"]);
    assert_eq!(
        stdout(&o),
        "no differences between `ed` with variant `edited.ron` and `ed`\n",
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "diff",
        "--data",
        "ed",
        "--variant",
        "edited.ron",
        "--from",
        "base",
    ]);
    assert_eq!(
        stdout(&o),
        "no differences between `ed` and `ed` with variant `edited.ron`\n"
    );
    // A --from that names nothing is a usage error.
    let o = run(&["diff", "--from", "nowhere"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o)
        .contains("expected `shipped`, `base` (the --data game without --variant), a data folder"));
}
