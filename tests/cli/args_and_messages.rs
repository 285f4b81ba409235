//! The command line's answers to what a user types wrong or may misread
//! (the CLI audit): threads a run cannot start, a data folder that is not
//! the one loaded, runs a seed does not repeat, swapped or impossible
//! arguments, usage lines, statistics that claim too much, and a build to
//! compare that is not a watergate.

use crate::common::cli::{exported_game, watergate_in};
use crate::common::temp::TempFolder;
use std::path::Path;
use std::process::{Command, Output};

fn watergate(args: &[&str]) -> Output {
    let here = TempFolder::new("watergate-args");
    watergate_in(&here, args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A stack no system gives (an exabyte): every thread the binary asks of
/// the system without a size of its own is refused, as a memory or thread
/// limit refuses one.
const REFUSING_STACK: &str = "1152921504606846976";

fn with_threads_refused(args: &[&str]) -> Output {
    let here = TempFolder::new("watergate-threads");
    Command::new(env!("CARGO_BIN_EXE_watergate"))
        .current_dir(&here)
        .env("RUST_MIN_STACK", REFUSING_STACK)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The shipped variant that changes only a card's script and value (no
/// numbers: the game's name is not changed by it).
fn cheap_liddy() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/variants/cheap_liddy.ron")
        .display()
        .to_string()
}

// Item 1: threads.

#[test]
fn threads_the_system_refuses_end_the_run_with_an_error_not_a_panic() {
    for args in [
        &["simulate", "-n", "4", "-j", "4"][..],
        &["soak", "-n", "4", "-j", "4"],
        &[
            "ladder",
            "-n",
            "4",
            "-j",
            "4",
            "--agents",
            "random,heuristic",
        ],
    ] {
        let out = with_threads_refused(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("error: cannot start 4 worker threads")
                && err.contains("no game was played"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_run_starts_no_more_threads_than_games() {
    // One game and eight threads asked: the one game is played on the
    // command's own thread, so no thread is asked of the system.
    let out = with_threads_refused(&["simulate", "-n", "1", "-j", "8"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("games/s on 1 thread ("),
        "{}",
        stdout(&out)
    );
}

#[test]
fn soak_reports_the_threads_it_started_not_those_asked_for() {
    // Two games on eight threads asked: two threads play them.
    let out = watergate(&["soak", "-n", "2", "-j", "8"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(" on 2 threads (seed"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn an_absurd_thread_count_is_refused_before_any_game() {
    let out = watergate(&["simulate", "-n", "10", "-j", "100000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "invalid value '100000' for '--threads <N>': too large: at most 1024 threads"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");
}

// Item 3: a data folder here is not the game loaded.

#[test]
fn a_data_folder_here_that_is_not_loaded_is_named_in_one_line() {
    let dir = exported_game("args-here");
    let data = dir.join("mydata");
    let card = data.join("cards/editor/23_recruit_woods.ron");
    let text = std::fs::read_to_string(&card).unwrap();
    std::fs::write(&card, text.replace("value:", "valu:")).unwrap();
    // Without --data the built-in game is checked, and passes; the note
    // says the folder's own files were not.
    let out = watergate_in(&data, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "note: ./cards and ./scripts are not loaded: this command uses the built-in data; `--data .` loads them\n"
    );
    assert!(stdout(&out).contains("(built-in data)"));
    // `--data .` loads them: the broken card is found, and no note.
    let out = watergate_in(&data, &["check", "--data", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr(&out).contains("note:"), "{}", stderr(&out));
    // Every command that loads a game from its flags says so.
    let out = watergate_in(&data, &["cards"]);
    assert!(stderr(&out).starts_with("note: ./cards and ./scripts are not loaded"));
}

#[test]
fn an_unedited_copy_of_the_shipped_data_here_needs_no_note() {
    // Loading it would give the same game.
    let dir = exported_game("args-copy");
    let out = watergate_in(&dir.join("mydata"), &["check"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

// Item 5: a time budget does not repeat under a seed.

#[test]
fn a_seeded_run_with_a_time_budget_says_it_will_not_repeat() {
    let out = watergate(&[
        "simulate",
        "-n",
        "1",
        "--seed",
        "3",
        "--editor",
        "ismcts:1ms",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(
        notes,
        ["note: ismcts:1ms has a time budget, so its games depend on the machine's speed and --seed does not repeat this run (ismcts:N, a number of iterations, does)"]
    );
    // Iterations repeat: no note.
    let out = watergate(&["simulate", "-n", "1", "--editor", "ismcts:5"]);
    assert!(!stderr(&out).contains("note:"), "{}", stderr(&out));
    // The help of --seed says so too.
    let help = stdout(&watergate(&["help", "simulate"]));
    assert!(
        help.contains(
            "an agent with a time budget, ismcts:Nms, still plays differently on every run"
        ),
        "{help}"
    );
}

#[test]
fn sweep_and_mine_with_a_time_budget_say_it_too() {
    let dir = crate::common::temp::TempFolder::new("wg-args-mine-timed");
    let out_dir = dir.join("mined");
    let runs: [Vec<&str>; 2] = [
        vec![
            "sweep",
            "--param",
            "game.evidence_per_round=3",
            "-n",
            "1",
            "--editor",
            "ismcts:1ms",
        ],
        vec![
            "mine",
            "-n",
            "1",
            "--agents",
            "ismcts:1ms",
            "--depth",
            "1",
            "--tries",
            "1",
            "--out",
            out_dir.to_str().unwrap(),
        ],
    ];
    for args in runs {
        let out = watergate(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("note: ismcts:1ms has a time budget"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_list_where_one_agent_goes_says_where_two_agents_go() {
    // `ladder --agents` takes a list; `mine --agents` is the agent of both
    // sides, and `--editor`/`--nixon` take one each.
    for args in [
        &["mine", "--agents", "heuristic,random", "--out", "x"][..],
        &["simulate", "--editor", "heuristic,random"][..],
    ] {
        let out = watergate(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("`heuristic,random` is a list; this takes one agent (for two, give --editor AGENT and --nixon AGENT"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

// Item 6: serve --host localhost.

#[test]
fn the_studio_listens_on_localhost_as_its_help_says() {
    let server = crate::common::server::Server::start(&["--host", "localhost"]);
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    drop(server);
    // Other names are still refused (DNS rebinding).
    let out = watergate(&["serve", "--host", "example.com"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("expected an IP address (127.0.0.1, ::1, 0.0.0.0) or localhost; other host names are refused"),
        "{}",
        stderr(&out)
    );
}

// Item 7: a card's side against its folder and id.

#[test]
fn a_card_whose_side_contradicts_its_folder_and_id_is_warned_of() {
    let dir = exported_game("args-side");
    let card = dir.join("mydata/cards/editor/23_recruit_woods.ron");
    let text = std::fs::read_to_string(&card).unwrap();
    assert!(text.contains("side: Editor"), "{text}");
    std::fs::write(&card, text.replace("side: Editor", "side: Nixon")).unwrap();
    let out = watergate_in(&dir, &["check", "--data", "mydata"]);
    // Advice, not an error: the card is dealt to Nixon's deck.
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("(21 Nixon, 19 Editor)"));
    let err = stderr(&out);
    assert!(
        err.starts_with("warning: mydata/cards/editor/23_recruit_woods.ron:7:11: card `editor.recruit_woods` has `side: Nixon`, but it lies in cards/editor/ and its id begins with `editor.`: it is dealt to Nixon's deck; is `side` right?\n"),
        "{err}"
    );
    // The line, with a caret under the value, as other warnings show it.
    assert!(err.contains("7 |     side: Nixon,"), "{err}");
    // The shipped game has no such card.
    let out = watergate(&["check"]);
    assert_eq!(stderr(&out), "");
}

#[test]
fn a_script_with_nothing_in_it_is_warned_of() {
    // A designer audit: a card script emptied (or left with only comments)
    // passed check, and the card's action silently did nothing.
    let dir = exported_game("args-empty-script");
    let script = dir.join("mydata/scripts/nixon/gordon_liddy.rhai");
    std::fs::write(&script, "// TODO: the new action\n\n").unwrap();
    let out = watergate_in(&dir, &["check", "--data", "mydata"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("warning: mydata/scripts/nixon/gordon_liddy.rhai:1:1: the script has nothing in it but comments and blanks: the action of every card that names it does nothing\n"),
        "{}",
        stderr(&out)
    );
}

// Item 10: messages.

#[test]
fn a_folder_where_a_file_should_be_is_called_a_folder() {
    let dir = exported_game("args-folder");
    let game = dir.join("mydata/cards/game.ron");
    std::fs::remove_file(&game).unwrap();
    std::fs::create_dir(&game).unwrap();
    let out = watergate_in(&dir, &["check", "--data", "mydata"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("mydata/cards/game.ron: a folder, not a file: expected this file here"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_data_folder_that_is_not_there_is_said_not_to_exist() {
    let out = watergate(&["check", "--data", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(
            "nope: does not exist: expected a data root holding `cards/` and `scripts/`"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn swapped_data_and_variant_paths_name_the_other_flag() {
    let dir = exported_game("args-swapped");
    let out = watergate_in(&dir, &["check", "--variant", "mydata"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --variant mydata: a folder, not a variant file (a data folder goes after --data)\n"
    );
    let out = watergate_in(&dir, &["check", "--data", "mydata/cards/game.ron"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --data mydata/cards/game.ron: a file, not a folder: --data takes a data folder holding cards/ and scripts/ (a variant file goes after --variant)\n"
    );
}

#[test]
fn a_variant_file_that_is_not_found_says_where_it_was_looked_for() {
    let dir = TempFolder::new("watergate-args-variant");
    std::fs::create_dir(dir.join("house")).unwrap();
    std::fs::write(
        dir.join("house/v.ron"),
        "Variant(name: \"v\", files: [(\"scripts/nixon/gordon_liddy.rhai\", \"liddy_v2.rhai\")])\n",
    )
    .unwrap();
    // The script sits beside the command, not beside the variant.
    std::fs::write(dir.join("liddy_v2.rhai"), "").unwrap();
    let out = watergate_in(&dir, &["check", "--variant", "house/v.ron"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot read `house/liddy_v2.rhai`: No such file or directory (os error 2); a variant names its files relative to its own folder, `house`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn negative_and_huge_numbers_are_told_what_is_allowed() {
    for (args, expected) in [
        (
            &["simulate", "--games", "-5"][..],
            "invalid value '-5' for '--games <N>': must be at least 1",
        ),
        (
            &["simulate", "-n", "-5"],
            "invalid value '-5' for '--games <N>': must be at least 1",
        ),
        (
            &["simulate", "--precision", "-0.1"],
            "invalid value '-0.1' for '--precision <HALF_WIDTH>': must be more than 0",
        ),
        (
            &["simulate", "-j", "-2"],
            "invalid value '-2' for '--threads <N>': must be at least 1 thread",
        ),
        (
            &["serve", "--port", "-1"],
            "invalid value '-1' for '--port <N>': -1 is not in 0..=65535",
        ),
        (
            &["ladder", "-n", "-1"],
            "invalid value '-1' for '--games <N>': must be at least 1",
        ),
        (
            &["soak", "-n", "-5"],
            "invalid value '-5' for '--games <N>': must be at least 1",
        ),
        (
            &["sweep", "--param", "game.hand_size_with_initiative=4,5", "-n", "-5"],
            "invalid value '-5' for '--games <N>': must be at least 1",
        ),
        (
            &["mine", "-n", "-5"],
            "invalid value '-5' for '--games <N>': must be at least 1",
        ),
        (
            &["simulate", "--games", "99999999999999999999"],
            "invalid value '99999999999999999999' for '--games <N>': too large: at most 18446744073709551615",
        ),
    ] {
        let out = watergate(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(expected), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("unexpected argument"), "{args:?}");
    }
}

// Item 11: usage lines.

#[test]
fn usage_lines_show_only_what_is_required() {
    // No puzzle named: the message names --list too.
    let out = watergate(&["puzzle"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--list"), "{}", stderr(&out));
    // --difficulty needs --list, and a FILE is not required with it.
    let out = watergate(&["puzzle", "--difficulty", "hard"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(
            "Usage: watergate puzzle [OPTIONS] <FILE>\n       watergate puzzle --list [--difficulty <K>] [DIR]..."
        ),
        "{err}"
    );
    assert!(!err.contains("  <FILE>"), "FILE is not missing: {err}");
    // Flags given are not shown as required.
    let out = watergate(&["--quiet", "solve", "--own"]);
    assert!(
        stderr(&out).contains("Usage: watergate solve [OPTIONS] <FILE>\n"),
        "{}",
        stderr(&out)
    );
}

// Item 12: statistics.

#[test]
fn a_paired_run_gives_the_difference_in_game_length_with_its_interval() {
    let variant = cheap_liddy();
    let out = watergate(&["simulate", "-n", "40", "--against", &variant]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("difference in mean game length"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.starts_with("difference in mean game length (paired): ")
            && line.contains(" rounds (95% CI "),
        "{line}"
    );
    let out = watergate(&["simulate", "-n", "40", "--against", &variant, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &v["difference_in_mean_rounds_paired"];
    let (low, est, high) = (
        d["low"].as_f64().unwrap(),
        d["estimate"].as_f64().unwrap(),
        d["high"].as_f64().unwrap(),
    );
    assert!(low <= est && est <= high, "{d}");
    assert!((est - v["difference_in_mean_rounds"].as_f64().unwrap()).abs() < 1e-9);
}

#[test]
fn a_precision_reached_is_said_to_be_reached() {
    let out = watergate(&["simulate", "-n", "5000", "--precision", "0.1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("  precision ±0.1 (10.0 points) reached: ±"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_short_mining_run_gives_no_hourly_rate() {
    let dir = TempFolder::new("watergate-args-mine");
    let out = watergate_in(&dir, &["mine", "--games", "2", "--out", "found"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("  too few to rate (a rate needs 5 puzzles and a minute): "),
        "{text}"
    );
    assert!(!text.contains("per hour"), "{text}");
}

#[test]
fn the_bench_says_how_many_times_as_fast_even_when_slower() {
    let out = watergate(&["bench", "--quick"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("ISMCTS root-parallel"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("x as fast as one thread)"), "{line}");
    assert!(!text.contains("faster than"), "{text}");
}

// Item 15: smaller items.

#[test]
fn a_program_that_is_not_watergate_is_refused_as_a_build_to_compare() {
    let out = watergate(&["bench", "--quick", "--compare-build", "/bin/true"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "--compare-build: `/bin/true` is not a build of watergate: its --version printed"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "", "nothing is measured");
}

#[test]
fn check_deep_says_ok_only_after_the_scripts_ran_cleanly() {
    // A script that fails from round 2 on: loading passes, the deep check
    // does not.
    let dir = exported_game("args-deep");
    let script = dir.join("mydata/scripts/editor/deep_throat.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(
        &script,
        format!("if round() >= 2 {{ move_evidence(1, #{{ colour: \"purple\" }}) }}\n{text}"),
    )
    .unwrap();
    let out = watergate_in(&dir, &["check", "--data", "mydata", "--deep", "-n", "40"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(!stdout(&out).contains("ok:"), "{}", stdout(&out));
    // A clean deep check ends with its ok line.
    let out = watergate(&["check", "--deep", "-n", "4"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("deep check: "), "{text}");
    assert!(
        text.lines().last().is_some_and(|l| l.starts_with("ok: ")),
        "{text}"
    );
}

#[test]
fn check_names_the_variant_in_its_ok_line() {
    let out = watergate(&["check", "--variant", &cheap_liddy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let ok = text.lines().find(|l| l.starts_with("ok: ")).unwrap();
    assert!(
        ok.starts_with("ok: Watergate (base game) — variant: Liddy reworked (built-in data): "),
        "{ok}"
    );
}
