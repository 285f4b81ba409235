//! The command line, end to end: the binary as a user runs it.

use crate::common::temp::TempFolder;
use std::process::{Command, Output};

fn watergate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp_dir(name: &str) -> TempFolder {
    TempFolder::unmade(&format!("watergate-cli-{name}"))
}

#[test]
fn check_passes_on_the_shipped_data() {
    let out = watergate(&["check"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("ok: "), "{text}");
    assert_eq!(text.lines().count(), 1);
}

/// An export with `--force` over an edited copy gives the shipped game
/// again: a card or script the designer added would otherwise still be
/// loaded with it (`--data` reads every file of `cards/` and `scripts/`).
#[test]
fn export_with_force_over_an_edited_copy_leaves_the_shipped_game_only() {
    let dir = temp_dir("export-force");
    let d = dir.to_str().unwrap();
    assert!(watergate(&["export", d]).status.success());
    let hunt = dir.join("cards/nixon/09_howard_hunt.ron");
    let added_card = dir.join("cards/nixon/43_dirty_tricks.ron");
    let added_script = dir.join("scripts/nixon/liddy2.rhai");
    let text = std::fs::read_to_string(&hunt).unwrap();
    std::fs::write(&hunt, text.replace("value: 2,", "value: 3,")).unwrap();
    std::fs::write(&added_card, "not even a card").unwrap();
    std::fs::write(&added_script, "move_momentum(1);\n").unwrap();
    std::fs::write(dir.join("NOTES.txt"), "mine").unwrap();
    std::fs::write(dir.join("cards/.swap"), "an editor's").unwrap();

    let out = watergate(&["export", "--force", d]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let removed: Vec<&str> = text.lines().filter(|l| l.starts_with("removed ")).collect();
    assert_eq!(
        removed,
        [
            format!(
                "removed {}: not a file of the shipped game",
                added_card.display()
            ),
            format!(
                "removed {}: not a file of the shipped game",
                added_script.display()
            ),
        ],
        "{text}"
    );
    assert!(!added_card.exists() && !added_script.exists());
    // Files the loader does not read stay.
    assert!(dir.join("NOTES.txt").exists() && dir.join("cards/.swap").exists());
    let diff = watergate(&["diff", "--data", d]);
    assert_eq!(
        diff.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&diff.stdout)
    );
}

#[test]
fn export_edit_and_check_reports_every_problem_with_positions() {
    let dir = temp_dir("export");
    let out = watergate(&["export", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(watergate(&["check", "--data", dir.to_str().unwrap()])
        .status
        .success());
    // Exporting again over it is refused without --force.
    assert!(!watergate(&["export", dir.to_str().unwrap()])
        .status
        .success());

    let card = dir.join("cards/nixon/09_howard_hunt.ron");
    let text = std::fs::read_to_string(&card).unwrap();
    std::fs::write(&card, text.replace("value: 2,", "value: 12,")).unwrap();
    std::fs::write(
        dir.join("scripts/nixon/gordon_liddy.rhai"),
        "move_momentm(1);\n",
    )
    .unwrap();
    let out = watergate(&["check", "--data", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "data errors exit 2");
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with(' ')).collect();
    let hunt = format!(
        "{}:9:12: value is 12: expected 1 to 9 (R1.7 prints 1–4)",
        card.display()
    );
    let liddy = format!(
        "{}:1:1: card `Gordon Liddy`: unknown function `move_momentm` with 1 argument(s): not a function of the card script API (see `watergate script-api`); did you mean `move_momentum`?",
        dir.join("scripts/nixon/gordon_liddy.rhai").display()
    );
    assert_eq!(
        lines,
        vec![hunt.as_str(), liddy.as_str(), "2 problems found"],
        "{err}"
    );
    // Each problem is followed by the offending line with a caret.
    assert!(err.contains("   9 |     value: 12,"), "{err}");
}

#[test]
fn check_on_garbage_never_panics() {
    let dir = temp_dir("garbage");
    watergate(&["export", dir.to_str().unwrap()]);
    std::fs::write(dir.join("cards/board.ron"), [0xff, 0x00, 0x28, 0x28]).unwrap();
    let out = watergate(&["check", "--data", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "data errors exit 2");
    assert!(String::from_utf8_lossy(&out.stderr).contains("board.ron:1:1: not valid UTF-8"));
    let out = watergate(&["check", "--data", "/nonexistent/dir"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cards_lists_the_deck_as_a_table_and_as_json() {
    let out = watergate(&["cards"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Follow the money!"));
    assert!(text.contains(" 42  Editor  event*"));
    let out = watergate(&["cards", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = v["cards"].as_array().unwrap();
    assert_eq!(list.len(), 40);
    assert!(list
        .iter()
        .any(|c| c["id"] == "nixon.gambit" && c["value"] == 1));
}

#[test]
fn simulate_json_has_the_promised_fields_and_ignores_the_thread_count() {
    let run = |threads: &str| {
        let out = watergate(&[
            "simulate",
            "--games",
            "300",
            "--seed",
            "9",
            "--threads",
            threads,
            "--json",
        ]);
        assert!(out.status.success());
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for key in [
            "games",
            "editor_wins",
            "nixon_wins",
            "win_causes",
            "mean_rounds",
        ] {
            assert!(v.get(key).is_some(), "missing {key}");
        }
        for timing in ["seconds", "games_per_second", "threads"] {
            v.as_object_mut().unwrap().remove(timing);
        }
        v
    };
    let one = run("1");
    assert_eq!(one["games"], 300);
    assert_eq!(
        one["editor_wins"].as_u64().unwrap() + one["nixon_wins"].as_u64().unwrap(),
        300
    );
    assert_eq!(one, run("2"));
}

#[test]
fn script_api_prints_every_function() {
    let out = watergate(&["script-api"]);
    let text = String::from_utf8(out.stdout).unwrap();
    for name in watergate::script::api::api_names() {
        assert!(text.contains(&format!("`{name}(")), "{name} missing");
    }
    // README: docs/script-api.md is this command's output, whole (it once
    // lacked the section on where the shipped scripts call each function).
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/script-api.md"))
        .unwrap();
    assert!(
        doc == text,
        "regenerate docs/script-api.md with `watergate script-api > docs/script-api.md`"
    );
}

#[test]
fn bad_usage_is_explained() {
    let out = watergate(&["simulate", "--editor", "genius"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown agent `genius`"));
}

/// Runs the binary with `stdin` as its input, in `dir` (shared with
/// `play_session`).
pub(crate) fn watergate_with_input(dir: &std::path::Path, args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .current_dir(dir)
        // Logs without --log go to the per-user data folder: here, inside the test's folder.
        .env("XDG_DATA_HOME", dir.join("data-home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().unwrap();
    // The game may end before it reads everything: a closed pipe is fine.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().unwrap()
}

/// `check` counts the scripts that read the game (run at every play):
/// a momentum space's script counts as a card's does (it once did not).
#[test]
fn check_counts_a_momentum_space_s_script_that_reads_the_game() {
    let dir = temp_dir("check_dynamic");
    std::fs::create_dir_all(&dir).unwrap();
    let out = watergate_with_input(&dir, &["export", "-q", "data"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ok = |dir: &std::path::Path| {
        let out = watergate_with_input(dir, &["check", "--data", "data"], "");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(
        ok(&dir).contains("31 scripts (0 read the game)"),
        "{}",
        ok(&dir)
    );
    let script = dir.join("data/scripts/editor/momentum_3_watergate_trial.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(
        &script,
        format!("if round() > 99 {{ move_momentum(1); }}\n{text}"),
    )
    .unwrap();
    assert!(
        ok(&dir).contains("31 scripts (1 read the game)"),
        "{}",
        ok(&dir)
    );
}

/// A game played on a variant: its log names the variant by its absolute
/// path, so the replay command the terminal prints names the log alone,
/// quoted as the shell needs; run as printed, from another folder, it
/// replays the game. Once the log named no variant and the command had to
/// carry it (as typed, which worked only from the folder played in).
#[test]
fn the_replay_command_printed_after_a_game_replays_it() {
    let dir = temp_dir("replay_hint");
    std::fs::create_dir_all(dir.join("my variants")).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("scenarios/variants/old_board.ron"),
        dir.join("my variants/old board.ron"),
    )
    .unwrap();
    // The board it brings.
    std::fs::copy(
        root.join("scenarios/variants/board_2025.ron"),
        dir.join("my variants/board_2025.ron"),
    )
    .unwrap();
    let out = watergate_with_input(
        &dir,
        &[
            "play",
            "--as",
            "both",
            "--seed",
            "3",
            "--variant",
            "my variants/old board.ron",
            "--log",
            "my game.log.ron",
        ],
        &"1\n".repeat(40),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // The command on the lines after the sentence, whole: a line too long
    // for 80 columns goes on in the next after ` \` (the path, long in a
    // temporary folder, on its own).
    let rest = text
        .split_once("replay it with:\n  watergate ")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| {
            panic!(
                "no replay command: {}",
                &text[text.len().saturating_sub(600)..]
            )
        });
    let mut parts = Vec::new();
    for line in rest.lines() {
        match line.strip_suffix(" \\") {
            Some(part) => parts.push(part.trim_start()),
            None => {
                parts.push(line.trim_start());
                break;
            }
        }
    }
    let command = parts.join(" ");
    let command = command.as_str();
    let variant = dir
        .join("my variants/old board.ron")
        .canonicalize()
        .unwrap();
    assert_eq!(
        command,
        format!(
            "replay '{}'",
            std::path::absolute(dir.join("my game.log.ron"))
                .unwrap()
                .display()
        )
    );
    let log = std::fs::read_to_string(dir.join("my game.log.ron")).unwrap();
    assert!(
        log.contains(&format!("variant: {:?},", variant.display().to_string())),
        "{log}"
    );
    // The words as a shell reads them (quoted paths with spaces).
    let words = crate::play_session::shell_words(command);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let elsewhere = temp_dir("replay_hint_elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = watergate_with_input(&elsewhere, &words, "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("The replay ends as the log records: "));
}

#[test]
fn play_writes_a_log_that_replay_narrates_and_checks() {
    let dir = temp_dir("play");
    std::fs::create_dir_all(&dir).unwrap();
    let moves = "1\n".repeat(3000);
    let out = watergate_with_input(
        &dir,
        &[
            "play",
            "--as",
            "nixon",
            "--seed",
            "4",
            "--log",
            "game.log.ron",
        ],
        &moves,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Game over: "),
        "{}",
        &text[text.len().saturating_sub(2000)..]
    );
    assert!(
        !text.contains('\x1b'),
        "no colours when the output is not a terminal"
    );

    let out = watergate_with_input(&dir, &["replay", "game.log.ron"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("[1] Editor: "), "{text}");
    assert!(text.contains("Final position"));
    assert!(text.contains("The replay ends as the log records: "));

    // --step waits for Enter; the end of input lets it run to the end.
    let out = watergate_with_input(&dir, &["replay", "--step", "game.log.ron"], "\n\n");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Enter: next choice, q: quit)"));
    assert!(text.contains("The replay ends as the log records: "));

    // A log whose outcome does not follow from its choices is refused.
    let log = std::fs::read_to_string(dir.join("game.log.ron")).unwrap();
    let swapped = if log.contains("winner: Editor") {
        log.replace("winner: Editor", "winner: Nixon")
    } else {
        log.replace("winner: Nixon", "winner: Editor")
    };
    std::fs::write(dir.join("swapped.log.ron"), swapped).unwrap();
    let out = watergate_with_input(&dir, &["replay", "swapped.log.ron"], "");
    assert_eq!(out.status.code(), Some(2), "a bad log is an input error");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("swapped.log.ron:") && err.contains("the log records"),
        "{err}"
    );

    // Without --log the game is logged under its seed in the per-user log
    // folder, never the current one; `quit` stops it.
    let out = watergate_with_input(&dir, &["play", "--seed", "12345"], "quit\n");
    assert!(out.status.success());
    let logged = dir.join("data-home/watergate/logs/watergate-12345.log.ron");
    assert!(logged.exists());
    assert!(!dir.join("watergate-12345.log.ron").exists());
    let out = watergate_with_input(&dir, &["replay", logged.to_str().unwrap()], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Play on from a saved position, in hotseat, without a log.
    let out = watergate_with_input(
        &dir,
        &["play", "--seed", "3", "--log", "-"],
        "1\n1\nsave saved.ron\nquit\n",
    );
    assert!(out.status.success());
    let out = watergate_with_input(
        &dir,
        &[
            "play",
            "--as",
            "both",
            "--scenario",
            "saved.ron",
            "--log",
            "-",
        ],
        "show\nquit\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Playing on from the position of `saved game`."),
        "{text}"
    );
    assert!(text.contains("Editor's view"));

    // Hotseat needs no agent.
    let out = watergate_with_input(&dir, &["play", "--as", "both", "--ai", "random"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// Issue 40: `play` without `--seed` keeps the seed a secret until the
/// game ends: not on screen, no log on disk (it names the seed), no save
/// against the agent; at the end the seed is shown and the log written.
#[test]
fn an_unchosen_seed_is_a_secret_until_the_game_ends() {
    use std::io::{Read, Write};
    use std::process::Stdio;
    use std::sync::{Arc, Mutex};
    let dir = temp_dir("secret-seed");
    let logs = dir.join("data-home/watergate/logs");
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(["play", "--ai", "random"])
        .current_dir(&dir)
        .env("XDG_DATA_HOME", dir.join("data-home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = child.stdout.take().unwrap();
    let sink = seen.clone();
    let reader = std::thread::spawn(move || {
        let mut b = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut b) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&b[..n]);
        }
    });
    let prompts = || {
        String::from_utf8_lossy(&seen.lock().unwrap())
            .matches("Editor> ")
            .count()
    };
    let wait_for = |n: usize| {
        let t = std::time::Instant::now();
        while prompts() < n {
            assert!(t.elapsed().as_secs() < 60, "no prompt {n}");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    };
    let mut stdin = child.stdin.take().unwrap();
    wait_for(1);
    writeln!(stdin, "1").unwrap();
    wait_for(2);
    // Mid-game: no log in the log folder yet.
    let files = std::fs::read_dir(&logs).map(|d| d.count()).unwrap_or(0);
    assert_eq!(files, 0, "a log on disk before the end names the seed");
    writeln!(stdin, "save mid.ron").unwrap();
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    assert!(status.success());
    let text = String::from_utf8_lossy(&seen.lock().unwrap()).into_owned();
    assert!(
        text.contains("A new game of Watergate (its seed is shown when the game ends)."),
        "{text}"
    );
    assert!(
        text.contains("Not saved: a saved position holds every hidden card"),
        "{text}"
    );
    assert!(!dir.join("mid.ron").exists());
    let (before, after) = text
        .split_once("This game's seed was ")
        .expect("the seed is shown at the end");
    // With the command that deals it again (and its `--ai`), on a line
    // of its own.
    let seed: u64 = after
        .split_once("\n  watergate play --seed ")
        .and_then(|(_, rest)| {
            rest.lines()
                .next()?
                .strip_suffix(" --ai random")?
                .parse()
                .ok()
        })
        .expect("a seed");
    assert!(
        !before.contains(&seed.to_string()),
        "the seed {seed} was on screen before the end"
    );
    // The log is written now, named after the seed, and names it.
    let log = logs.join(format!("watergate-{seed}.log.ron"));
    let logged = std::fs::read_to_string(&log).expect("the log, written at the end");
    assert!(logged.contains(&seed.to_string()));
}

#[test]
fn a_game_log_given_where_a_scenario_is_wanted_points_at_replay() {
    use watergate::formats::log::{players, GameLog};
    let dir = temp_dir("log-as-scenario");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.log.ron");
    let r = watergate::data::shipped();
    GameLog::new_game(&r, 1, players("human", "random"))
        .write(&file)
        .unwrap();
    for cmd in ["solve", "scenario", "puzzle"] {
        let out = watergate(&[cmd, file.to_str().unwrap()]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "this is a game log, not a scenario: `watergate replay {}` replays it",
                file.display()
            )),
            "{cmd}: {err}"
        );
    }
}

/// A game played on from a scenario with `edits` carries them in its log,
/// and its replay plays with them: the same rules, so no warning of other
/// data, and the edited number of informants (R8.3) in the narration.
#[test]
fn a_game_played_from_a_scenario_with_edits_replays_with_them() {
    let dir = temp_dir("log-edits");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("one_informant.ron"),
        "Scenario(seed: 3, edits: Some((game: Some((informants_to_connect: Some(1))))))\n",
    )
    .unwrap();
    let out = watergate_with_input(
        &dir,
        &[
            "play",
            "--scenario",
            "one_informant.ron",
            "--as",
            "both",
            "--seed",
            "3",
            "--log",
            "game.log.ron",
        ],
        "1\n1\n1\nquit\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(dir.join("game.log.ron")).unwrap();
    assert!(log.contains("informants_to_connect: 1,"), "{log}");
    let out = watergate_with_input(&dir, &["replay", "game.log.ron"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("other game data"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("0 of 1 needed"), "{text}");
    // Edits that name a file are not carried in a log: one that has them is
    // refused at them.
    let named = log.replacen(
        "files: [],",
        "files: [(\"scripts/nixon/gambit.rhai\", \"x.rhai\")],",
        1,
    );
    assert_ne!(named, log);
    std::fs::write(dir.join("named.log.ron"), &named).unwrap();
    let out = watergate_with_input(&dir, &["replay", "named.log.ron"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("a log's edits name no files"), "{err}");
}

/// docs/mining.md: a position whose idea is already in `--out` is skipped,
/// so mining again into the same folder writes no puzzle twice.
#[test]
fn mining_again_into_the_same_folder_skips_the_ideas_already_there() {
    let dir = temp_dir("mine-again");
    let mine = || {
        let out = watergate(&[
            "-q",
            "mine",
            "--games",
            "4",
            "--agents",
            "ismcts:50",
            "--tries",
            "1",
            "--seed",
            "1",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let first = mine();
    let written: usize = first
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{first}"));
    assert!(written > 0, "{first}");
    assert!(first.contains("(0 duplicate ideas skipped)"), "{first}");
    let again = mine();
    assert!(
        again.starts_with(&format!(
            "0 puzzles written to {} from 4 games ({} skipped)",
            dir.display(),
            watergate::game::wording::count(written, "duplicate idea")
        )),
        "{again}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), written);
}

/// `--report-peak-memory` is reported in the text report too (it went
/// only into `--json`, so the flag printed nothing).
#[test]
fn simulate_reports_peak_memory_as_text_when_asked() {
    let o = watergate(&["simulate", "-n", "20", "-q", "--report-peak-memory"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    let kib = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("peak memory: "))
        .and_then(|l| l.strip_suffix(" KiB"))
        .unwrap_or_else(|| panic!("no peak memory line:\n{out}"));
    assert!(kib.parse::<u64>().is_ok_and(|k| k > 0), "{kib}");
}

/// `solve --depth N` on a puzzle asks another question than the puzzle's
/// claim (the rest of the round): the answer says the claim went
/// unchecked, where a silence read as the claim confirmed.
#[test]
fn solve_at_another_depth_says_the_puzzle_s_claim_is_not_checked() {
    let puzzle = "scenarios/puzzles/01_reaction_chain.ron";
    let out = watergate(&["-q", "solve", puzzle, "--depth", "2"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with(
            "(not the puzzle's claim, which is about the round: it is checked at that horizon)\n"
        ),
        "{text}"
    );
    let out = watergate(&["-q", "solve", puzzle]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8(out.stdout).unwrap().contains("claim"));
}

/// A file of the wrong kind is named once for what it is: ron's own
/// message says what it found ("but found `garbage`"), and the reader
/// once added ", found `garbage`" after it.
#[test]
fn a_file_of_the_wrong_kind_says_what_it_found_once() {
    let dir = temp_dir("wrong_kind");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("garbage.log.ron");
    std::fs::write(&log, "garbage").unwrap();
    let out = watergate(&["replay", log.to_str().unwrap()]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.lines().next(),
        Some(
            format!(
                "{}:1:1: expected struct `GameLog` but found `garbage`; cannot go on inside this file",
                log.display()
            )
            .as_str()
        ),
        "{err}"
    );
}

/// A field left out is reported as missing, at the end of its card (ron
/// called it an "unexpected missing field").
#[test]
fn a_field_left_out_is_reported_missing() {
    let dir = temp_dir("missing_field");
    let d = dir.to_str().unwrap();
    assert!(watergate(&["export", d]).status.success());
    let card = dir.join("cards/nixon/09_howard_hunt.ron");
    let text = std::fs::read_to_string(&card).unwrap();
    let without: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("value: "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&card, without).unwrap();
    let out = watergate(&["check", "--data", d]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.lines()
            .next()
            .is_some_and(|l| l.starts_with(&card.display().to_string())
                && l.ends_with(": missing field `value` in `PlayerCard`")),
        "{err}"
    );
}
