//! Command-line manners, end to end with the real binary: closed pipes,
//! exit codes, Ctrl-C (a real SIGINT), output paths checked before work,
//! colour, log folders and `replay --step`. See README, "Command-line
//! manners".

use crate::common::temp::TempFolder;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_watergate");

fn watergate(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn temp_dir(name: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-manners-{name}"))
}

fn root(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const PUZZLE: &str = "scenarios/puzzles/01_reaction_chain.ron";
const BIG_PUZZLE: &str = "scenarios/puzzles/15_five_cards_each.ron";

/// A game log and a simulation result to feed `replay` and `merge`.
fn fixtures(dir: &Path) -> (String, String) {
    let log = dir.join("game.log.ron");
    let out = watergate(&[
        "play",
        "--as",
        "both",
        "--seed",
        "5",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = dir.join("run.json");
    let out = watergate(&["simulate", "--games", "20", "--json"]);
    std::fs::write(&json, &out.stdout).unwrap();
    (
        log.to_string_lossy().into_owned(),
        json.to_string_lossy().into_owned(),
    )
}

/// Every subcommand, with arguments that make it write to stdout.
fn every_command(dir: &Path) -> Vec<Vec<String>> {
    let (log, json) = fixtures(dir);
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        s(&["check"]),
        s(&["cards"]),
        s(&["cards", "--json"]),
        s(&["export", dir.join("export").to_str().unwrap()]),
        s(&["script-api"]),
        s(&["simulate", "--games", "40"]),
        s(&["simulate", "--games", "40", "--json"]),
        s(&["merge", &json]),
        s(&["scenario", &root(PUZZLE)]),
        s(&["scenario", &root(PUZZLE), "--json"]),
        s(&["soak", "--games", "3"]),
        s(&["bench", "--quick"]),
        s(&["play", "--as", "both", "--seed", "3", "--log", "-"]),
        s(&["replay", &log]),
        s(&["solve", &root(PUZZLE)]),
        s(&[
            "diff",
            "--variant",
            &root("scenarios/variants/no_gambit.ron"),
        ]),
        s(&[
            "diff",
            "--variant",
            &root("scenarios/variants/no_gambit.ron"),
            "--json",
        ]),
        s(&["puzzle", &root(PUZZLE)]),
        s(&[
            "sweep",
            "--param",
            "card.nixon.gordon_liddy.value=2,3",
            "-n",
            "4",
            "--editor",
            "random",
            "--nixon",
            "random",
        ]),
        s(&["ladder", "--agents", "random,heuristic", "-n", "2"]),
        s(&[
            "mine",
            "--games",
            "1",
            "--agents",
            "heuristic",
            "--tries",
            "1",
            "--out",
            dir.join("mined").to_str().unwrap(),
        ]),
        s(&["--help"]),
        s(&["simulate", "--help"]),
        s(&["--version"]),
    ]
}

#[test]
fn the_closed_pipe_list_names_every_subcommand() {
    use clap::CommandFactory;
    let dir = temp_dir("pipe-list");
    let listed: Vec<String> = every_command(&dir)
        .into_iter()
        .map(|a| a[0].clone())
        .collect();
    for sub in watergate::app::cli::Cli::command().get_subcommands() {
        let name = sub.get_name().to_string();
        // `serve` writes its URL once and then serves until stopped: no
        // output to close a pipe on (tests/studio/studio_play.rs runs it).
        assert!(
            name == "help" || name == "serve" || listed.contains(&name),
            "`watergate {name}` is not in the closed-pipe list of tests/cli/manners.rs"
        );
    }
}

fn no_panic(args: &[String], out: &Output) {
    let err = stderr(out);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{args:?}: {err}"
    );
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
}

/// Item 1: a reader that goes away before the command writes a byte.
#[test]
fn every_command_ends_quietly_with_success_when_stdout_is_closed_at_once() {
    let dir = temp_dir("pipe-closed");
    for args in every_command(&dir) {
        let _ = std::fs::remove_dir_all(dir.join("export"));
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the read end: every write the command makes meets EPIPE.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        no_panic(&args, &out);
    }
}

/// Item 1: `| head -c 16`: the reader takes a few bytes, then closes.
#[test]
fn every_command_ends_quietly_with_success_when_the_reader_stops_early() {
    let dir = temp_dir("pipe-head");
    for args in every_command(&dir) {
        let _ = std::fs::remove_dir_all(dir.join("export"));
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 16];
        let mut pipe = child.stdout.take().unwrap();
        let _ = pipe.read(&mut head);
        drop(pipe);
        let out = child.wait_with_output().unwrap();
        no_panic(&args, &out);
    }
}

/// Items 1 and 3 together: Ctrl-C, then the report meets a closed pipe.
#[test]
fn a_closed_pipe_after_ctrl_c_still_exits_130() {
    let mut child = Command::new(BIN)
        .args(["simulate", "--games", "100000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    // Simulating first, then writing: SIGINT stops the run and the report
    // then meets the closed pipe. Exit 130 wins over the pipe (the run was
    // interrupted), and nothing panics.
    wait_until_it_catches(&child, SIGINT);
    std::thread::sleep(Duration::from_millis(500));
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(130));
}

fn interrupt(child: &Child) {
    signal(child, SIGINT);
}

/// A signal as a test sends it: its name for `kill -NAME` and its number.
#[derive(Clone, Copy)]
pub(crate) struct Signal(&'static str, u32);
pub(crate) const SIGINT: Signal = Signal("INT", 2);
pub(crate) const SIGTERM: Signal = Signal("TERM", 15);

/// Sends `child` the signal, as a user's `kill -NAME` does.
pub(crate) fn signal(child: &Child, Signal(name, _): Signal) {
    let ok = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{name} failed");
}

/// Waits until `child` has installed its handler of the signal, as Linux
/// reports it (the `SigCgt` mask of `/proc/<pid>/status`). A fixed sleep
/// alone raced with a slow start on a loaded machine: a signal that comes
/// before the handler ends the process by default, with no report and no
/// exit code 130.
pub(crate) fn wait_until_it_catches(child: &Child, Signal(name, number): Signal) {
    let bit: u64 = 1 << (number - 1);
    let status = format!("/proc/{}/status", child.id());
    let started = Instant::now();
    loop {
        let text = std::fs::read_to_string(&status).expect("the child is running");
        let caught = text
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .map(|mask| u64::from_str_radix(mask.trim(), 16).expect("a hex mask"))
            .expect("a SigCgt line");
        if caught & bit != 0 {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no SIG{name} handler after a minute"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The child of a test, killed if the test ends before it does: a test
/// that failed (no handler, say) left a run of 100,000,000 games behind.
struct Running(Option<Child>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Spawns a long run, lets it play for `after` once it takes the signal,
/// then sends it: its output, and how long it took to stop.
pub(crate) fn stopped_by(
    args: &[&str],
    sent_signal: Signal,
    after: Duration,
) -> (Output, Duration) {
    let mut running = Running(Some(
        Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    ));
    let child = running.0.as_ref().expect("the child");
    wait_until_it_catches(child, sent_signal);
    std::thread::sleep(after);
    let sent = Instant::now();
    signal(child, sent_signal);
    let child = running.0.take().expect("the child");
    let out = child.wait_with_output().unwrap();
    (out, sent.elapsed())
}

/// Spawns a long run, lets it play for a while once it takes Ctrl-C,
/// sends a real SIGINT.
fn interrupted(args: &[&str], after: Duration) -> (Output, Duration) {
    stopped_by(args, SIGINT, after)
}

/// Item 3: Ctrl-C during a simulation: the games finished so far are
/// reported, marked partial, and the exit code is 130.
#[test]
fn ctrl_c_stops_a_simulation_with_a_partial_report_in_json() {
    let (out, took) = interrupted(
        &["simulate", "--games", "100000000", "--json"],
        Duration::from_millis(1500),
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(took < Duration::from_secs(10), "it took {took:?} to stop");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    assert_eq!(v["partial"], true);
    let finished = v["games_finished"].as_u64().unwrap();
    assert!(finished > 0);
    assert_eq!(v["games"].as_u64(), Some(finished));
    assert_eq!(v["games_asked"].as_u64(), Some(100_000_000));
    // The tallies are those of the games finished: the first `finished`
    // games of the run, exactly (the same as a run of that many games).
    assert_eq!(
        v["editor_wins"].as_u64().unwrap() + v["nixon_wins"].as_u64().unwrap(),
        finished
    );
    let again = watergate(&[
        "simulate",
        "--games",
        &finished.to_string(),
        "--json",
        "--threads",
        "1",
    ]);
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["editor_wins"], w["editor_wins"]);
    assert_eq!(v["rounds_histogram"], w["rounds_histogram"]);
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
}

#[test]
fn ctrl_c_stops_a_simulation_with_a_partial_report_in_text() {
    let (out, _) = interrupted(
        &["simulate", "--games", "100000000"],
        Duration::from_millis(1200),
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("PARTIAL: interrupted (Ctrl-C) after "),
        "{text}"
    );
    assert!(text.contains("Editor  wins"), "{text}");
}

#[test]
fn ctrl_c_stops_a_precision_run_and_a_comparison() {
    let (out, _) = interrupted(
        &[
            "simulate",
            "--variant",
            &root("scenarios/variants/no_gambit.ron"),
            "--baseline",
            "base",
            "--precision",
            "0.0001",
            "--json",
        ],
        Duration::from_millis(1500),
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["partial"], true);
    let finished = v["games_finished"].as_u64().unwrap();
    assert_eq!(v["against"]["games"].as_u64(), Some(finished));
}

#[test]
fn ctrl_c_stops_a_soak_with_a_partial_report() {
    let (out, _) = interrupted(
        &["soak", "--games", "100000000"],
        Duration::from_millis(1500),
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("PARTIAL: interrupted"), "{text}");
    assert!(text.contains("no failure in the games finished"), "{text}");
}

#[test]
fn ctrl_c_stops_the_solver() {
    // Seven cards in each hand: a round the solver takes many seconds to
    // search (the five-card puzzle it searched first is solved in under a
    // second on a fast processor, before the interrupt came).
    let dir = temp_dir("solver-interrupted");
    std::fs::create_dir_all(&dir).unwrap();
    let position = dir.join("seven_cards.ron");
    std::fs::write(
        &position,
        "Scenario(seed: 1, edits: Some((game: Some((hand_size_with_initiative: Some(7), hand_size_without_initiative: Some(7))))))",
    )
    .unwrap();
    let (out, _) = interrupted(
        &["solve", position.to_str().unwrap(), "--nodes", "1000000000"],
        Duration::from_millis(1000),
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stdout(&out).contains("unknown (partial): interrupted after"));
}

/// Item 7: one exit code table for every command.
#[test]
fn exit_codes_follow_the_table() {
    let dir = temp_dir("codes");
    // 0: success.
    assert_eq!(watergate(&["check"]).status.code(), Some(0));
    // 1: an expectation failed.
    let scn = std::fs::read_to_string(root(
        "tests/scenarios/rules/r10_1_value_neither_shortened_nor_split.ron",
    ))
    .unwrap();
    let wrong = dir.join("wrong.ron");
    std::fs::write(
        &wrong,
        scn.replace("turn: Some(Nixon)", "turn: Some(Editor)"),
    )
    .unwrap();
    let out = watergate(&["scenario", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // 2: usage, input and data errors.
    assert_eq!(
        watergate(&["check", "--data", "/nonexistent/dir"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        watergate(&["simulate", "--games", "many"]).status.code(),
        Some(2)
    );
    assert_eq!(watergate(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(
        watergate(&["scenario", "/nonexistent.ron"]).status.code(),
        Some(2)
    );
    // 3: a card script that fails at run time (only from round 2, so the
    // data loads and checks clean).
    let data = dir.join("data");
    assert!(watergate(&["export", data.to_str().unwrap()])
        .status
        .success());
    std::fs::write(
        data.join("scripts/editor/bob_woodward.rhai"),
        "if round() > 1 { throw \"the press is closed\"; }\ndraw_evidence_to_track(2);\nmove_initiative_or_momentum(2);\n",
    )
    .unwrap();
    assert_eq!(
        watergate(&["check", "--data", data.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
    let out = watergate(&[
        "simulate",
        "--data",
        data.to_str().unwrap(),
        "--games",
        "300",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("bob_woodward.rhai:1:18: card `Bob Woodward`: the press is closed"),
        "{}",
        stderr(&out)
    );
    // 4: the solver hit its node limit: no answer.
    let out = watergate(&["solve", &root(BIG_PUZZLE), "--nodes", "1000"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    // Exactly the limit: the position that would pass it is not searched.
    assert!(
        stdout(&out)
            .starts_with("unknown: the search stopped after 1000 positions (raise --nodes)"),
        "{}",
        stdout(&out)
    );
    // 130 is tested with real signals above.
}

/// Item 2: no bar when stderr is not a terminal (here a pipe), so stderr
/// stays empty on success; `--quiet` is accepted everywhere.
#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    for args in [
        vec!["simulate", "--games", "300"],
        vec!["--quiet", "soak", "--games", "3"],
        vec!["solve", PUZZLE, "-q"],
    ] {
        let args: Vec<String> = args
            .iter()
            .map(|a| if *a == PUZZLE { root(a) } else { a.to_string() })
            .collect();
        let out = Command::new(BIN).args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

/// Item 4: every output path is checked before any work starts: a run of
/// a hundred million games refused at once, not after playing them.
#[test]
fn output_paths_are_checked_before_any_work() {
    let dir = temp_dir("paths");
    let d = dir.to_str().unwrap().to_string();
    let missing = dir.join("no/such/folder/out.csv");
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--csv".into(), d.clone()],
            "is a folder; expected a file name",
        ),
        (
            vec!["--csv".into(), missing.to_string_lossy().into()],
            "does not exist",
        ),
        (
            vec!["--chart".into(), dir.join("c.png").to_string_lossy().into()],
            "PNG is not supported",
        ),
        (
            vec!["--chart".into(), dir.join("c.jpg").to_string_lossy().into()],
            "`.jpg` is not a chart format",
        ),
        (
            vec![
                "--chart".into(),
                file.join("c.svg").to_string_lossy().into(),
            ],
            "is not a folder",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["simulate".to_string(), "--games".into(), "100000000".into()];
        args.extend(extra);
        let start = Instant::now();
        let out = Command::new(BIN).args(&args).output().unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{args:?}: played first"
        );
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "");
    }
    // merge, scenario --save, play --log and export check theirs too.
    let out = watergate(&["merge", "nonexistent.json", "--csv", &d]);
    assert!(stderr(&out).contains("--csv"), "{}", stderr(&out));
    let out = watergate(&["scenario", &root(PUZZLE), "--save", &d]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--save"), "{}", stderr(&out));
    assert_eq!(stdout(&out), "", "refused before the position is played");
    let out = watergate(&["play", "--log", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--log"), "{}", stderr(&out));
    assert_eq!(stdout(&out), "", "refused before the game starts");
    let out = watergate(&["export", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is a file; expected a folder"),
        "{}",
        stderr(&out)
    );
    // A good .svg chart and CSV are written.
    let chart = dir.join("chart.svg");
    let csv = dir.join("out.csv");
    let out = watergate(&[
        "simulate",
        "--games",
        "50",
        "--chart",
        chart.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&chart).unwrap().starts_with("<svg"));
    assert!(std::fs::read_to_string(&csv)
        .unwrap()
        .starts_with("run,section,key,value,low,high"));
}

fn with_input(args: &[&str], env: &[(&str, &Path)], input: &str) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_remove("XDG_DATA_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// Item 8: logs go to the per-user data folder, never the current one.
#[test]
fn play_logs_go_to_the_per_user_data_folder() {
    let dir = temp_dir("logs");
    let cwd = dir.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let run = |env: &[(&str, &Path)]| {
        let mut cmd = Command::new(BIN);
        cmd.args(["play", "--seed", "77", "--ai", "random"])
            .current_dir(&cwd)
            .env_remove("XDG_DATA_HOME")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    // $XDG_DATA_HOME/watergate/logs, created when needed.
    let xdg = dir.join("xdg");
    let out = run(&[("XDG_DATA_HOME", &xdg)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = xdg.join("watergate/logs/watergate-77.log.ron");
    assert!(log.exists());
    // The sentence is wrapped to the terminal's width: compared with its
    // line breaks as spaces.
    let said = stdout(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        said.contains(&format!("The game's log is in {};", log.display())),
        "{said}"
    );
    // Without it, ~/.local/share/watergate/logs.
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let out = run(&[("HOME", &home)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(home
        .join(".local/share/watergate/logs/watergate-77.log.ron")
        .exists());
    assert_eq!(
        std::fs::read_dir(&cwd).unwrap().count(),
        0,
        "nothing in the current folder"
    );
}

/// Item 8: `replay --step` shows the board after each choice; `q` quits.
#[test]
fn replay_step_shows_the_position_after_each_choice_and_q_quits() {
    let dir = temp_dir("replay");
    let log = dir.join("g.log.ron");
    let out = with_input(
        &[
            "play",
            "--as",
            "both",
            "--seed",
            "9",
            "--log",
            log.to_str().unwrap(),
        ],
        &[],
        "1\n\n1\n\n1\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = with_input(&["replay", "--step", log.to_str().unwrap()], &[], "\nq\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.matches("Evidence board").count(), 2, "{text}");
    // Input piped in is written after its prompt, as `play` writes it.
    assert!(text.contains("(after choice 1 of 3; Enter: next choice, q: quit) \n"));
    assert!(
        text.contains("(after choice 2 of 3; Enter: next choice, q: quit) q\n"),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with("Stopped after choice 2 of 3."),
        "{text}"
    );
    assert!(!text.contains("[3]"), "q stops before the third choice");
}

/// The scrollback erased last: tmux and VTE keep an erased screen in it.
const CLEAR: &str = "\x1b[H\x1b[2J\x1b[3J";

/// Item 5: `--color`, `NO_COLOR`, and the board without colours.
#[test]
fn color_flag_and_plain_boards_that_name_every_colour() {
    let puzzle = root("scenarios/puzzles/06_deep_throat.ron");
    let plain = watergate(&["--color", "never", "scenario", &puzzle]);
    let text = stdout(&plain);
    assert!(!text.contains('\x1b'), "{text}");
    // Each slip's colour is a letter after the space id, with its legend;
    // the tokens are named in words; informants in full.
    assert!(
        text.contains("e2iB·") && text.contains("e2hG·") && text.contains("e2gY·"),
        "{text}"
    );
    assert!(text.contains("a space's letter is its slip: B blue, Y yellow, G green"));
    assert!(
        text.contains("tokens: e1a blue up, e1b yellow up"),
        "{text}"
    );
    for name in ["Martha Mitchell", "Butterfield", "McCord", "Baldwin"] {
        assert!(text.contains(name), "{name}: {text}");
    }
    // Piped output under `auto` is plain too; `always` paints (even with
    // NO_COLOR: the flag is explicit).
    assert_eq!(stdout(&watergate(&["scenario", &puzzle])), text);
    let out = Command::new(BIN)
        .args(["--color", "always", "scenario", &puzzle])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains("\x1b[34;1me2i\x1b[0m"),
        "{}",
        stdout(&out)
    );
    let bad = watergate(&["--color", "sometimes", "check"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("expected auto, always or never"));
}

/// Runs `args` on a pseudo-terminal (util-linux `script`), both stdout and
/// stderr; what the terminal showed. `None` where `script` is missing.
fn on_a_terminal(args: &str, env: &[(&str, &str)]) -> Option<String> {
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &format!("{BIN} {args}"), "/dev/null"])
        .stdin(Stdio::null())
        .env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Items 2 and 5 on a real (pseudo-)terminal: colours under `auto` unless
/// NO_COLOR; a progress bar with rate and ETA on stderr unless --quiet.
#[test]
fn on_a_terminal_colours_and_progress_follow_the_flags() {
    let puzzle = root("scenarios/puzzles/06_deep_throat.ron");
    let Some(tty) = on_a_terminal(&format!("scenario {puzzle}"), &[]) else {
        // In CI (`.ci/run` sets the flag) the terminal must be tested, as
        // the browser must: `script` is util-linux's, on every Debian.
        assert_ne!(
            std::env::var("WATERGATE_REQUIRE_BROWSER").as_deref(),
            Ok("1"),
            "WATERGATE_REQUIRE_BROWSER=1 but util-linux `script` did not run"
        );
        eprintln!("no `script` here: the terminal paths are covered by the pipe tests only");
        return;
    };
    assert!(tty.contains("\x1b[34;1me2i\x1b[0m"), "{tty}");
    let tty = on_a_terminal(&format!("scenario {puzzle}"), &[("NO_COLOR", "1")]).unwrap();
    assert!(!tty.contains("\x1b["), "{tty}");
    assert!(tty.contains("e2iB"), "{tty}");

    let tty = on_a_terminal("simulate --games 4000 --threads 1", &[]).unwrap();
    assert!(
        tty.contains("games, ") && tty.contains("/s, ") && tty.contains(" left"),
        "{tty}"
    );
    assert!(tty.contains("4000 games, seed 1"), "{tty}");
    let tty = on_a_terminal("--quiet simulate --games 4000 --threads 1", &[]).unwrap();
    assert!(!tty.contains("/s, "), "{tty}");
    let tty = on_a_terminal(&format!("solve {puzzle}"), &[]).unwrap();
    assert!(tty.contains("Editor"), "{tty}");
}

/// Item 5: hotseat clears the screen and the scrollback between players,
/// wherever there is a screen; `play --compact` screens fit 50 lines.
#[test]
fn hotseat_clears_the_scrollback_and_compact_screens_fit() {
    // Any line answers the handover prompt; "1" takes the first option.
    let input = format!("{}quit\n", "1\n".repeat(12));
    let input = input.as_str();
    let args = [
        "play",
        "--as",
        "both",
        "--seed",
        "3",
        "--log",
        "-",
        "--compact",
    ];
    let piped = with_input(&args, &[], input);
    assert!(piped.status.success(), "{}", stderr(&piped));
    let text = stdout(&piped);
    assert!(!text.contains('\x1b'), "no escapes into a pipe");
    // Each screen, from its header to its prompt, fits on 50 lines.
    let screens: Vec<&str> = text.split("════ ").skip(1).collect();
    assert!(screens.len() >= 3, "{text}");
    for s in &screens {
        let lines = s.split("> ").next().unwrap().lines().count();
        assert!(lines <= 50, "{lines} lines: {s}");
    }
    let mut forced = vec!["--color", "always"];
    forced.extend(args);
    let out = with_input(&forced, &[], input);
    let text = stdout(&out);
    // Before the handover prompt and after the next player presses Enter.
    let handovers = text.matches("Pass the terminal to").count();
    assert!(handovers >= 2, "{text}");
    assert_eq!(text.matches(CLEAR).count(), 2 * handovers, "{text}");
    let before = text.find("Pass the terminal to Nixon").unwrap();
    assert!(text[..before].ends_with(&format!("{CLEAR}\n──── ")));
}

/// Input from a pipe is not shown by any terminal: `play` writes each line
/// it reads after its prompt, so a piped game's transcript reads as a
/// session at a terminal does, every answer on its prompt's line and every
/// line within 80 columns (before, the next output shared the prompt's line).
#[test]
fn a_piped_game_shows_each_answer_after_its_prompt() {
    let input = format!("{}help\nquit\n", "1\n".repeat(20));
    let out = with_input(
        &["play", "--as", "both", "--seed", "3", "--log", "-"],
        &[],
        &input,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let prompts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Editor> ") || l.starts_with("Nixon> "))
        .collect();
    assert!(prompts.len() >= 10, "{text}");
    for p in &prompts {
        let answer = p.split_once("> ").unwrap().1;
        assert!(["1", "help", "quit"].contains(&answer), "{p:?} in:\n{text}");
    }
    assert_eq!(prompts.last().map(|p| p.ends_with("> quit")), Some(true));
    // The handovers' Enter is an answer too.
    assert!(text.contains("press Enter when ready. ──── 1\n"), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
}

/// Item 3: Ctrl-C during a sweep: the points played so far are reported
/// (the last with its first games), marked partial, exit 130; a partial
/// sweep is refused by `sweep --merge`.
#[test]
fn ctrl_c_stops_a_sweep_with_a_partial_report() {
    let (out, took) = interrupted(
        &[
            "sweep",
            "--param",
            "card.nixon.gordon_liddy.value=1,2,3,4",
            "-n",
            "100000000",
            "--editor",
            "random",
            "--nixon",
            "random",
            "--json",
        ],
        Duration::from_millis(1500),
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(took < Duration::from_secs(10), "it took {took:?} to stop");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    assert_eq!(v["partial"], true);
    let finished = v["games_finished"].as_u64().unwrap();
    assert!(finished > 0);
    assert_eq!(v["games_asked"].as_u64(), Some(400_000_000));
    // Only the first point was under way: it holds every finished game.
    assert_eq!(v["summary"][0]["games"].as_u64(), Some(finished));
    let dir = temp_dir("partial-sweep");
    let file = dir.join("partial.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let merged = watergate(&["sweep", "--merge", file.to_str().unwrap()]);
    assert_eq!(merged.status.code(), Some(2));
    assert!(
        stderr(&merged).contains("stopped by Ctrl-C"),
        "{}",
        stderr(&merged)
    );
}

/// Item 3: Ctrl-C during a ladder: the pairings played so far are rated,
/// marked partial, exit 130.
#[test]
fn ctrl_c_stops_a_ladder_with_a_partial_report() {
    let (out, _) = interrupted(
        &[
            "ladder",
            "--agents",
            "random,heuristic",
            "-n",
            "100000000",
            "--json",
        ],
        Duration::from_millis(1500),
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    assert_eq!(v["partial"], true);
    assert!(v["games_finished"].as_u64().unwrap() > 0);
}

/// `play ARGS` with its output piped, Ctrl-C pressed at its second
/// prompt (after one choice, `1`): its exit code, stdout and stderr.
fn ctrl_c_at_the_second_prompt(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // One choice, then the next prompt: the game waits in a read.
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    let mut prompts = 0;
    while prompts < 2 {
        let mut byte = [0u8];
        assert_eq!(out.read(&mut byte).unwrap(), 1, "the game ended: {seen}");
        seen.push(byte[0] as char);
        if seen.ends_with("Editor> ") {
            prompts += 1;
            if prompts == 1 {
                input.write_all(b"1\n").unwrap();
            }
        }
    }
    interrupt(&child);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let mut rest = Vec::new();
    out.read_to_end(&mut rest).unwrap();
    drop(input);
    seen.push_str(&String::from_utf8_lossy(&rest));
    (status.code(), seen, err)
}

/// Ctrl-C in `play`, waiting for the player's answer: the game stops as
/// `quit` would stop it. A seed nobody chose is shown, the log it kept back
/// is written where `--log` says (it replays), and the exit code is 130.
#[test]
fn ctrl_c_in_play_says_the_secret_seed_and_writes_the_log() {
    let dir = TempFolder::new("watergate-play-ctrl-c");
    let log = dir.join("game.log.ron");
    let args = ["--color", "never", "play", "--ai", "random", "--log"];
    let mut args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    args.push(log.as_os_str());
    let (code, _, err) = ctrl_c_at_the_second_prompt(&args);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("Stopped after 1 choice."), "{err}");
    let seed: u64 = err
        .split("This game's seed was ")
        .nth(1)
        .and_then(|rest| rest.split_once("\n  watergate play --seed "))
        .and_then(|(_, rest)| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no seed shown: {err}"));
    assert!(err.contains("The game's log is in "), "{err}");
    let text = std::fs::read_to_string(&log).expect("the log is written");
    assert!(text.contains(&seed.to_string()), "{text}");
    let replay = Command::new(BIN).arg("replay").arg(&log).output().unwrap();
    assert!(replay.status.success(), "{}", stderr(&replay));
}

/// Ctrl-C says goodbye where `quit` does, on standard output, the game's
/// transcript (`play > game.txt` holds its end however it ended); as
/// standard output is no terminal here, on standard error too (a pipe's
/// reader, `| tee`, takes the same Ctrl-C and may be gone).
#[test]
fn ctrl_c_in_play_says_goodbye_on_stdout_as_quit_does() {
    let args = ["--color", "never", "play", "--seed", "4", "--log", "-"];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let (code, out, err) = ctrl_c_at_the_second_prompt(&args);
    assert_eq!(code, Some(130), "{err}");
    let goodbye = out
        .rsplit_once("Editor> ")
        .map(|(_, end)| end.trim().to_string())
        .unwrap_or_default();
    assert_eq!(goodbye, "Stopped after 1 choice.", "{out}");
    assert_eq!(err.trim(), goodbye);
    let quit = with_input(
        &["--color", "never", "play", "--seed", "4", "--log", "-"],
        &[],
        "1\nquit\n",
    );
    assert!(
        stdout(&quit).trim_end().ends_with(&goodbye),
        "{}",
        stdout(&quit)
    );
    assert!(stderr(&quit).is_empty(), "{}", stderr(&quit));
}
