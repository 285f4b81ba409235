//! `watergate play` as a user finds it, from an audit of the terminal game:
//! a log that never replaces a file, a header that names the game, a
//! "deal it again" command that deals it again, 80 columns, the track's
//! markers, the agents' help, `--compact`'s 50 lines and the hotseat
//! handover.

use crate::common::cli::exported_game;
use crate::common::temp::TempFolder;
use std::path::{Path, PathBuf};
use std::process::Output;

/// `watergate ARGS` in `dir` with `input` on standard input (plain text:
/// standard output is a pipe); logs without `--log` go inside `dir`.
use crate::cli::watergate_with_input as play_in;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Text as one line: wrapped sentences read whole.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn root(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The words of the command printed after `after` (`this deals it
/// again:`): its lines joined where they end in ` \`, split as a shell
/// splits them (quoted words kept whole).
fn command_after(text: &str, after: &str) -> Vec<String> {
    let rest = text
        .split_once(after)
        .unwrap_or_else(|| panic!("no `{after}` in {text}"))
        .1;
    let mut joined = String::new();
    for line in rest.lines().skip(1) {
        match line.strip_suffix(" \\") {
            Some(part) => joined.push_str(part),
            None => {
                joined.push_str(line);
                break;
            }
        }
    }
    shell_words(&joined)
}

/// A command's words as a shell reads them: split at spaces, a word in
/// single quotes kept whole (a path with spaces). Shared with `cli`.
pub(crate) fn shell_words(command: &str) -> Vec<String> {
    command
        .split('\'')
        .enumerate()
        .flat_map(|(i, part)| {
            if i % 2 == 1 {
                vec![part.to_string()]
            } else {
                part.split_whitespace().map(str::to_string).collect()
            }
        })
        .collect()
}

/// Audit item 1: `--log FILE` refuses a file that exists (a finished
/// game's log) before the game starts; `--force` replaces it; `--log -`
/// writes none.
#[test]
fn play_log_refuses_a_file_that_exists_unless_forced() {
    let dir = TempFolder::new("watergate-play-log-exists");
    std::fs::write(dir.join("old.log.ron"), "a finished game").unwrap();
    let out = play_in(
        &dir,
        &["play", "--seed", "3", "--log", "old.log.ron"],
        "1\nquit\n",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(
        flat(&stderr(&out)),
        "error: --log old.log.ron: already exists (the log of another game?); name another file, remove it, or pass --force to replace it"
    );
    assert!(stdout(&out).is_empty(), "refused before the game starts");
    assert_eq!(
        std::fs::read_to_string(dir.join("old.log.ron")).unwrap(),
        "a finished game"
    );
    let out = play_in(
        &dir,
        &["play", "--seed", "3", "--log", "old.log.ron", "--force"],
        "1\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(dir.join("old.log.ron"))
        .unwrap()
        .contains("GameLog("));
    let out = play_in(&dir, &["play", "--seed", "3", "--log", "-"], "quit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("The game's log is in"));
    // The help says so.
    let help = play_in(&dir, &["play", "--help"], "");
    let help = flat(&stdout(&help));
    assert!(
        help.contains("a file that exists is refused, unless --force"),
        "{help}"
    );
}

/// Audit item 2: with `--variant` or `--data` the header names the game
/// as `simulate` names it, and the variant by its own name.
#[test]
fn play_names_the_variant_and_the_data_in_its_header() {
    let dir = exported_game("play-header");
    let variant = root("scenarios/variants/no_gambit.ron");
    let out = play_in(
        &dir,
        &[
            "play",
            "--seed",
            "21",
            "--variant",
            variant.to_str().unwrap(),
            "--log",
            "-",
        ],
        "quit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let name = std::fs::read_to_string(&variant).unwrap();
    let name = name
        .split_once("name: \"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .unwrap()
        .0;
    let said = flat(&stdout(&out));
    assert!(
        said.starts_with(&format!(
            "A new game of Watergate, seed 21. The game: shipped game + {} (the variant `{name}`).",
            variant.display()
        )),
        "{said}"
    );
    let out = play_in(
        &dir,
        &["play", "--data", "mydata", "--ai", "random"],
        "quit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        flat(&stdout(&out)).starts_with(
            "A new game of Watergate (its seed is shown when the game ends). The game: mydata/."
        ),
        "{}",
        stdout(&out)
    );
    // The shipped game as it is needs no naming.
    let out = play_in(&dir, &["play", "--seed", "21", "--log", "-"], "quit\n");
    assert!(!stdout(&out).contains("The game:"), "{}", stdout(&out));
}

/// Audit item 3: the command that deals a secret seed's game again keeps
/// every option that shaped it (the side, the agent, the data, the
/// variant), not `--log`: run, it plays the same game to the same end.
#[test]
fn the_deal_it_again_command_plays_the_same_game() {
    let dir = exported_game("play-again");
    let variant = root("scenarios/variants/no_gambit.ron");
    let moves = "1\n".repeat(3000);
    let out = play_in(
        &dir,
        &[
            "play",
            "--as",
            "nixon",
            "--ai",
            "ismcts:30:threads=2",
            "--data",
            "mydata",
            "--variant",
            variant.to_str().unwrap(),
            "--log",
            "first.log.ron",
        ],
        &moves,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let first = stdout(&out);
    let again = command_after(&first, "this deals it again:");
    assert_eq!(again[..3], ["watergate", "play", "--seed"], "{again:?}");
    assert_eq!(
        again[4..],
        [
            "--as",
            "nixon",
            "--ai",
            "ismcts:30:threads=2",
            "--data",
            "mydata",
            "--variant",
            variant.to_str().unwrap(),
        ],
        "{again:?}"
    );
    let args: Vec<&str> = again[1..].iter().map(String::as_str).collect();
    let out = play_in(&dir, &args, &moves);
    assert!(out.status.success(), "{}", stderr(&out));
    let second = stdout(&out);
    // The game from its first screen to its end, the same both times.
    let game = |text: &str| {
        let from = text.find("════").expect("a screen");
        let to = text.find("Game over: ").expect("the game ends");
        text[from..to].to_string()
    };
    assert!(game(&first) == game(&second), "another game was dealt");
}

/// A line that holds only a file path (quoted for the shell or not,
/// perhaps ending a sentence or a command's line), which may be longer
/// than a line.
fn lone_path(line: &str) -> bool {
    let word = line
        .trim()
        .trim_end_matches(" \\")
        .trim_end_matches([';', '.', ':']);
    let path = match word.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')) {
        Some(quoted) => quoted,
        None if !word.contains(char::is_whitespace) => word,
        None => return false,
    };
    path.contains('/')
}

/// The lines of `text` longer than 80 columns (characters, not bytes),
/// but for a file path too long for a line, on a line of its own, and
/// for the player's own answers, echoed after their prompts.
fn too_wide(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.chars().count() > 80)
        .filter(|l| !lone_path(l))
        .filter(|l| !(l.starts_with("Editor> ") || l.starts_with("Nixon> ")))
        .map(str::to_string)
        .collect()
}

/// Audit item 4: every line `play` prints fits in 80 columns, along the
/// paths a session can take: a save refused for a secret seed, help,
/// cards, bad answers, undo, a position saved, the game's end with a
/// secret seed and a log in a folder with a long name, hotseat with its
/// handovers, compact screens, a variant and a data folder.
#[test]
fn every_line_of_play_fits_in_80_columns() {
    let dir = exported_game("play-80-columns");
    let deep =
        dir.join("a folder whose name is long enough/to push the replay command past eighty");
    std::fs::create_dir_all(&deep).unwrap();
    let log = deep.join("the log of a game.log.ron");
    let variant = root("scenarios/variants/no_gambit.ron");
    let talk = "save s.ron\nhelp\ncards\nundo\nbogus\n0\nsave\nboard\n";
    let sessions: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["play", "--ai", "random", "--log", log.to_str().unwrap()],
            format!("{talk}{}", "1\n".repeat(3000)),
        ),
        (
            vec![
                "play",
                "--as",
                "both",
                "--seed",
                "3",
                "--compact",
                "--variant",
                variant.to_str().unwrap(),
                "--log",
                "-",
            ],
            format!("{talk}{}", "1\n2\n\n".repeat(1000)),
        ),
        (
            vec![
                "play",
                "--as",
                "nixon",
                "--seed",
                "5",
                "--ai",
                "heuristic",
                "--data",
                "mydata",
                "--log",
                "g.log.ron",
            ],
            format!(
                "{talk}1\n1\nsave {}\nsave {}\nquit\n",
                deep.join("saved.ron").display(),
                deep.join("saved.ron").display()
            ),
        ),
        (
            vec!["play", "--seed", "8", "--ai", "random", "--log", "-"],
            String::new(),
        ),
    ];
    for (args, input) in sessions {
        let out = play_in(&dir, &args, &input);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        let wide = too_wide(&text);
        assert!(wide.is_empty(), "{args:?}: {wide:#?}");
    }
}

/// Audit item 5: the track draws a face-down token as the board's legend
/// says, `■`, and a face-up one (and the initiative and momentum) `●`.
#[test]
fn the_track_marks_face_down_tokens_as_the_board_legend_does() {
    use watergate::formats::render::{self, Style};
    use watergate::game::model::Side;
    use watergate::game::state::State;
    let r = watergate::data::shipped();
    let mut seen = 0;
    for seed in 0..20 {
        let s = State::new(&r, seed);
        let st = Style {
            colour: false,
            viewer: Some(Side::Editor),
        };
        let board = render::position_with(&r, &s, &st, true);
        let legend = flat(&board);
        assert!(
            legend.contains("● face-up token") && legend.contains("■ face-down token"),
            "{board}"
        );
        let track = render::track(&r, &s, &st);
        for (slot, t) in s.track().iter().enumerate() {
            let Some((_, up)) = s.on_track(*t) else {
                continue;
            };
            let label = format!("ev{slot} ");
            let at = track
                .lines()
                .position(|l| l.starts_with(&label))
                .unwrap_or_else(|| panic!("no row {label}: {track}"));
            let row: String = track
                .lines()
                .skip(at)
                .take(2)
                .collect::<Vec<_>>()
                .join("\n");
            let (mine, other) = if up { ('●', '■') } else { ('■', '●') };
            assert!(row.contains(mine) && !row.contains(other), "{row}");
            seen += usize::from(!up);
        }
        for label in ["initiative", "momentum"] {
            if let Some(l) = track.lines().find(|l| l.starts_with(label)) {
                assert!(l.contains('●') || l.contains("not on the track"), "{l}");
            }
        }
    }
    assert!(seen > 0, "no face-down token on the track in 20 deals");
}

/// Audit item 6: `ismcts` alone, which every command takes as
/// `ismcts:1000`, is documented where the agents are.
#[test]
fn the_bare_ismcts_agent_is_documented_and_taken_alike() {
    let dir = TempFolder::new("watergate-play-bare-ismcts");
    for (command, flag) in [("play", "--ai"), ("simulate", "--editor")] {
        let help = play_in(&dir, &[command, "--help"], "");
        assert!(
            flat(&stdout(&help)).contains("ismcts alone: ismcts:1000"),
            "{command} {flag}: {}",
            stdout(&help)
        );
    }
    let out = play_in(
        &dir,
        &["simulate", "--games", "1", "--editor", "ismcts", "--json"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("ismcts:1000"), "{}", stdout(&out));
    let readme = std::fs::read_to_string(root("README.md")).unwrap();
    assert!(
        flat(&readme).contains("`ismcts` alone is `ismcts:1000`"),
        "README"
    );
}

/// The lines of each decision's screen, from its header to its prompt
/// (the prompt's line included), but for what happened since the
/// player's last decision, told before it (or, in hotseat, under the
/// header): that is as long as the opponent's turn was.
fn screen_lines(text: &str, prompt: &str) -> Vec<usize> {
    let chunks: Vec<&str> = text.split(prompt).collect();
    chunks[..chunks.len() - 1]
        .iter()
        .filter_map(|chunk| {
            let screen = &chunk[chunk.find("════")?..];
            // The block told under a hotseat header: its heading, then
            // bullets and their wrapped lines.
            let told = match screen.lines().nth(1) {
                Some("Since your last decision:") => {
                    1 + screen
                        .lines()
                        .skip(2)
                        .take_while(|l| l.starts_with("  • ") || l.starts_with("    "))
                        .count()
                }
                _ => 0,
            };
            Some(screen.lines().count() - told + 1)
        })
        .collect()
}

/// Audit item 8: `--compact` shows each decision's screen (the board, the
/// hand and the options) within 50 lines, as its help says; the moves
/// since the player's last decision come before it, as long as they were
/// (the audit's run: seed 5 against the heuristic agent, answering 1
/// throughout, took 51 to 55 lines with them).
#[test]
fn compact_play_shows_each_screen_within_50_lines() {
    let dir = TempFolder::new("watergate-play-compact");
    let help = play_in(&dir, &["play", "--help"], "");
    assert!(
        flat(&stdout(&help)).contains(
            "the board, your hand and the options within 50 lines, below the moves told since your last decision, which may take more"
        ),
        "{}",
        stdout(&help)
    );
    for (seed, side, prompt) in [
        ("5", "editor", "Editor> "),
        ("7", "editor", "Editor> "),
        ("5", "nixon", "Nixon> "),
        ("12", "nixon", "Nixon> "),
    ] {
        let out = play_in(
            &dir,
            &[
                "--color",
                "never",
                "play",
                "--compact",
                "--seed",
                seed,
                "--as",
                side,
                "--ai",
                "heuristic",
                "--log",
                "-",
            ],
            &"1\n".repeat(300),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let counts = screen_lines(&text, prompt);
        assert!(counts.len() > 20, "seed {seed}: {counts:?}");
        let worst = counts.iter().max().unwrap();
        assert!(*worst <= 50, "seed {seed}: {counts:?}\n{text}");
    }
}

/// Audit item 9: in hotseat, an answer typed at "press Enter when ready"
/// shows the screen, and the player is told it was not taken as a choice.
#[test]
fn a_number_typed_at_the_hotseat_handover_is_said_not_to_be_a_choice() {
    let dir = TempFolder::new("watergate-play-handover");
    let out = play_in(
        &dir,
        &["play", "--as", "both", "--seed", "3", "--log", "-"],
        &format!("{}quit\n", "1\n".repeat(12)),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let handovers = text.matches("press Enter when ready. ──── 1\n").count();
    assert!(handovers > 0, "no handover: {text}");
    let told = text
        .matches("press Enter when ready. ──── 1\n(`1` was not taken as a choice: Enter shows your screen.)\n")
        .count();
    assert_eq!(told, handovers, "{text}");
    // Each handover shows a screen, and the `1` chose nothing there.
    let prompts = text.matches("Editor> ").count() + text.matches("Nixon> ").count();
    assert_eq!(prompts + handovers, 13, "{text}");
}
