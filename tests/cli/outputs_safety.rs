//! A command never writes over what it was given, nor one output over
//! another: an output path naming one of the command's input files (by any
//! name: `./s.ron` is `s.ron`) is refused before any work, with exit 2 and
//! the file untouched; so are two outputs naming one file. A file written
//! where the user named none (`play`'s default log) takes a free name
//! rather than replace an earlier one. `mine --out` follows the output-path
//! rule of every command (README, "Output paths").

use crate::common::temp::TempFolder;
use crate::common::watergate_in;
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn folder(name: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-outputs-{name}"))
}

/// A user's scenario: its comment and name are what a bare saved
/// position would lose.
const SCENARIO: &str = "// My notes on this deal.\nScenario(name: \"seed 3\", seed: 3)\n";

/// Refused with exit 2 and `message` on stderr.
fn refused(out: &Output, message: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(message), "expected `{message}` in:\n{err}");
}

#[test]
fn saving_a_scenario_over_itself_is_refused_and_the_file_is_kept() {
    let dir = folder("scenario");
    std::fs::write(dir.join("s.ron"), SCENARIO).unwrap();
    let before = std::fs::read_to_string(dir.join("s.ron")).unwrap();
    for save in ["s.ron", "./s.ron"] {
        let out = watergate_in(&dir, &["scenario", "s.ron", "--save", save], "");
        refused(
            &out,
            &format!("--save {save}: is the scenario file, which this command reads"),
        );
    }
    assert_eq!(std::fs::read_to_string(dir.join("s.ron")).unwrap(), before);
    // Another name is saved to, as before.
    let out = watergate_in(&dir, &["scenario", "s.ron", "--save", "t.ron"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.join("t.ron").exists());
}

#[test]
fn merging_a_result_into_itself_is_refused_and_the_result_is_kept() {
    let dir = folder("merge");
    let out = watergate_in(&dir, &["simulate", "--games", "4", "--json"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(dir.join("full.json"), &out.stdout).unwrap();
    let out = watergate_in(&dir, &["merge", "full.json", "--csv", "full.json"], "");
    refused(
        &out,
        "--csv full.json: is a result file to merge, which this command reads",
    );
    let kept = std::fs::read_to_string(dir.join("full.json")).unwrap();
    assert!(kept.starts_with('{'), "{kept}");
}

#[test]
fn a_sweep_merged_into_its_own_input_is_refused_and_the_result_is_kept() {
    let dir = folder("sweep");
    let out = watergate_in(
        &dir,
        &[
            "sweep",
            "--param",
            "card.gordon_liddy.value=1,2",
            "--games",
            "2",
            "--editor",
            "random",
            "--nixon",
            "random",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(dir.join("sw.json"), &out.stdout).unwrap();
    let out = watergate_in(
        &dir,
        &["sweep", "--merge", "sw.json", "--csv", "./sw.json"],
        "",
    );
    refused(
        &out,
        "--csv ./sw.json: is a sweep result to merge, which this command reads",
    );
    let kept = std::fs::read_to_string(dir.join("sw.json")).unwrap();
    assert!(kept.starts_with('{'), "{kept}");
}

#[test]
fn a_simulation_writes_no_table_over_its_variant_or_the_game_it_compares_with() {
    let dir = folder("simulate-inputs");
    let variant = "Variant(name: \"cheap\", cards: [(id: \"nixon.gordon_liddy\", value: 1)])\n";
    std::fs::write(dir.join("v.ron"), variant).unwrap();
    for (args, message) in [
        (
            &[
                "simulate",
                "-n",
                "2",
                "--variant",
                "v.ron",
                "--csv",
                "./v.ron",
            ][..],
            "--csv ./v.ron: is the --variant file, which this command reads",
        ),
        (
            &[
                "simulate",
                "-n",
                "2",
                "--against",
                "v.ron",
                "--csv",
                "v.ron",
            ],
            "--csv v.ron: is the --against file, which this command reads",
        ),
    ] {
        refused(&watergate_in(&dir, args, ""), message);
        assert_eq!(std::fs::read_to_string(dir.join("v.ron")).unwrap(), variant);
    }
}

#[test]
fn two_outputs_of_one_command_may_not_share_a_file() {
    let dir = folder("two-outputs");
    let out = watergate_in(
        &dir,
        &[
            "simulate", "--games", "4", "--csv", "x.svg", "--chart", "./x.svg",
        ],
        "",
    );
    refused(
        &out,
        "--chart ./x.svg: is also the file of --csv; each output needs a file of its own",
    );
    // Refused before any game: nothing written.
    assert!(!dir.join("x.svg").exists());
}

#[test]
fn a_game_log_may_not_replace_the_scenario_it_plays_from() {
    let dir = folder("play-log");
    std::fs::write(dir.join("s.ron"), SCENARIO).unwrap();
    let before = std::fs::read_to_string(dir.join("s.ron")).unwrap();
    let out = watergate_in(
        &dir,
        &[
            "play",
            "--scenario",
            "s.ron",
            "--as",
            "both",
            "--log",
            "./s.ron",
        ],
        "quit\n",
    );
    refused(
        &out,
        "--log ./s.ron: is the --scenario file, which this command reads",
    );
    assert_eq!(std::fs::read_to_string(dir.join("s.ron")).unwrap(), before);
    // An explicit log elsewhere is written as before; over a file only
    // with --force (play_session::play_log_refuses_a_file_that_exists_unless_forced).
    std::fs::write(dir.join("old.log.ron"), "old").unwrap();
    let out = watergate_in(
        &dir,
        &[
            "play",
            "--scenario",
            "s.ron",
            "--as",
            "both",
            "--log",
            "old.log.ron",
            "--force",
        ],
        "quit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(dir.join("old.log.ron"))
        .unwrap()
        .contains("GameLog("));
}

/// The audit's case: `play --seed 4 </dev/null` replaced an earlier
/// seed-4 game's log with one of 0 choices.
#[test]
fn a_default_log_never_replaces_an_earlier_game_of_the_same_seed() {
    let dir = folder("default-log");
    let play = |input: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_watergate"))
            .args(["play", "--seed", "4", "--as", "both"])
            .current_dir(&*dir)
            .env("XDG_DATA_HOME", dir.join("xdg"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
                child.wait_with_output()
            })
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        // The sentence wraps to the terminal's width: read as one line.
        stdout(&out)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let logs = dir.join("xdg/watergate/logs");
    let said = play("1\n1\nquit\n");
    let first = logs.join("watergate-4.log.ron");
    assert!(
        said.contains(&format!("The game's log is in {};", first.display())),
        "{said}"
    );
    let earlier = std::fs::read_to_string(&first).unwrap();
    let said = play("quit\n");
    let second = logs.join("watergate-4-2.log.ron");
    assert!(
        said.contains(&format!("The game's log is in {};", second.display())),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&first).unwrap(), earlier);
    assert!(std::fs::read_to_string(&second)
        .unwrap()
        .contains("GameLog("));
}

#[test]
fn export_over_the_data_folder_it_reads_is_refused() {
    let dir = folder("export");
    assert!(watergate_in(&dir, &["export", "mydata"], "")
        .status
        .success());
    let out = watergate_in(
        &dir,
        &["export", "--data", "mydata", "--force", "./mydata"],
        "",
    );
    refused(
        &out,
        "export ./mydata: is the --data folder, which this command reads",
    );
}

/// README: "the folder must exist, a file must not be a folder (nor a
/// folder a file)"; `mine --out` made any missing parents, and named a
/// file in the way by the operating system's words.
#[test]
fn mine_out_follows_the_output_path_rule() {
    let dir = folder("mine-out");
    let mine = |out: &str| {
        watergate_in(
            &dir,
            &[
                "-q", "mine", "--games", "1", "--agents", "random", "--depth", "1", "--tries", "1",
                "--out", out,
            ],
            "",
        )
    };
    let out = mine("no/such/m");
    refused(&out, "the folder no/such does not exist");
    assert!(!dir.join("no").exists(), "no folder made");
    std::fs::write(dir.join("s.ron"), "kept").unwrap();
    let out = mine("s.ron");
    refused(&out, "--out s.ron: is a file; expected a folder");
    assert_eq!(std::fs::read_to_string(dir.join("s.ron")).unwrap(), "kept");
    // A new folder in an existing one is made, as before.
    let out = mine("m");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.join("m").is_dir());
}

#[test]
fn no_output_is_written_into_the_data_folder_or_over_a_file_a_variant_reads() {
    // A user audit: `simulate --data ed --csv ed/cards/game.ron` replaced
    // the game's settings with a table, and the next `check` failed.
    let dir = folder("into-the-game");
    let out = watergate_in(&dir, &["export", "ed"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let game = dir.join("ed/cards/game.ron");
    let before = std::fs::read(&game).unwrap();
    let runs: [&[&str]; 5] = [
        &[
            "simulate",
            "--data",
            "ed",
            "-n",
            "2",
            "--csv",
            "ed/cards/game.ron",
        ],
        &[
            "simulate",
            "-n",
            "2",
            "--against",
            "ed",
            "--chart",
            "ed/scripts/new.svg",
        ],
        &[
            "sweep",
            "--data",
            "ed",
            "--param",
            "card.gordon_liddy.value=1,2",
            "-n",
            "2",
            "--csv",
            "ed/cards/game.ron",
        ],
        &["mine", "--data", "ed", "-n", "1", "--out", "ed/cards/mined"],
        &[
            "scenario",
            "s.ron",
            "--data",
            "ed",
            "--save",
            "ed/cards/game.ron",
        ],
    ];
    std::fs::write(dir.join("s.ron"), SCENARIO).unwrap();
    for args in runs {
        let out = watergate_in(&dir, args, "");
        refused(&out, "every file there is part of the game");
        assert_eq!(std::fs::read(&game).unwrap(), before, "{args:?}");
    }
    assert!(!dir.join("ed/cards/mined").exists());
    assert!(!dir.join("ed/scripts/new.svg").exists());
    // The data folder itself, outside cards/ and scripts/, is the user's.
    let out = watergate_in(
        &dir,
        &[
            "simulate",
            "--data",
            "ed",
            "-n",
            "2",
            "--csv",
            "ed/results.csv",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // A script a variant reads from beside it (`files:`).
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/variants");
    for f in ["cheap_liddy.ron", "gordon_liddy_v2.rhai"] {
        std::fs::copy(shipped.join(f), dir.join(f)).unwrap();
    }
    let script = std::fs::read(dir.join("gordon_liddy_v2.rhai")).unwrap();
    let out = watergate_in(
        &dir,
        &[
            "simulate",
            "--variant",
            "cheap_liddy.ron",
            "-n",
            "2",
            "--csv",
            "gordon_liddy_v2.rhai",
        ],
        "",
    );
    refused(&out, "--csv gordon_liddy_v2.rhai: is `gordon_liddy_v2.rhai`, a file the variant of the game played reads");
    assert_eq!(
        std::fs::read(dir.join("gordon_liddy_v2.rhai")).unwrap(),
        script
    );
}
