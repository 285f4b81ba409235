//! The mined puzzles (`scenarios/puzzles/mined/`, written by `watergate mine`) are
//! proven again on the shipped data, as the miner proved them
//! (`lab::mine::prove`): the side to move forces a win (R8) within the
//! puzzle's depth against every defence and every chance outcome, and
//! exactly one first choice does so. A position with two winning first
//! choices is no puzzle, and `watergate solve` agrees with the miner on
//! every file. The hand-made puzzles of `scenarios/puzzles/` are checked
//! by `tests/scenarios.rs`.

use crate::common::temp::TempFolder;
use std::path::{Path, PathBuf};
use std::process::Command;
use watergate::data::GameSource;
use watergate::formats::scenario::Scenario;
use watergate::game::engine::notation::parse_choice;
use watergate::game::model::Side;
use watergate::game::rules::Rules;
use watergate::game::state::State;
use watergate::lab::mine::{self, Difficulty, MineOptions, Proof};
use watergate::players::solve::DepthCounts;

/// The solver's limit for each search of a re-proof: far above what any
/// shipped puzzle needs (the miner proved each within 2,000,000).
const NODES: u64 = 5_000_000;

fn mined_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/puzzles/mined");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
}

/// A puzzle file's position (after its `play`), its rules and its claim.
fn load(path: &Path) -> (Scenario, Rules, State) {
    let scn = Scenario::from_file(path).unwrap_or_else(|d| panic!("{d}"));
    let r = scn
        .rules(&GameSource::shipped())
        .unwrap_or_else(|d| panic!("{d}"));
    let mut s = scn.start(&r).unwrap_or_else(|d| panic!("{d}"));
    scn.play(&r, &mut s).unwrap_or_else(|d| panic!("{d}"));
    (scn, r, s)
}

#[test]
fn every_mined_puzzle_has_one_winning_first_move_and_its_solution_wins_within_the_depth() {
    let files = mined_files();
    for path in &files {
        let name = path.display();
        let (scn, r, s) = load(path);
        let p = scn.def.puzzle.as_ref().expect("a mined file is a puzzle");
        assert!(p.wins, "{name}: a mined puzzle claims a win");
        let depth = p.depth.expect("a mined puzzle has a depth");
        // `mine --depth` counts the side's own decisions (issue 37).
        assert_eq!(p.depth_counts, DepthCounts::Own, "{name}");
        // R5.14: nobody sees a deck's order, so the proof may not use it:
        // every card drawn is chance's (a proof that knew the top card won
        // by a card the player cannot see).
        assert!(
            s.explicit_deals(),
            "{name}: the proof must treat every card drawn as chance"
        );
        let prove = || mine::prove(&r, &s, p.side, depth, p.depth_counts, NODES, &|| true);
        let Proof::Unique { first, .. } = prove() else {
            panic!(
                "{name}: not one winning first move within {depth} own decisions: {:?}",
                prove()
            );
        };
        // The recorded solution starts with that move and, played out with
        // chance's outcomes as written, wins within the depth: at most
        // `depth` of its moves are the side's.
        let mut line = s.clone();
        line.set_explicit_chance(true);
        let mut options = Vec::new();
        let mut own = 0;
        for (i, text) in p.solution.iter().enumerate() {
            assert!(
                line.legal(&r, &mut options).is_some(),
                "{name}: over at {i}"
            );
            if line.to_move(&r) == Some(watergate::game::engine::Actor::Player(p.side)) {
                own += 1;
            }
            let c = parse_choice(&r, &line, text, &options)
                .unwrap_or_else(|e| panic!("{name}: solution move {i}: {e}"));
            if i == 0 {
                assert_eq!(
                    c, first,
                    "{name}: the solution's first move is the unique one"
                );
            }
            line.apply(&r, c)
                .unwrap_or_else(|e| panic!("{name}: solution move {i} `{text}`: {e}"));
        }
        assert_eq!(
            line.outcome().map(|o| o.winner),
            Some(p.side),
            "{name}: the solution ends in a win for {}",
            p.side
        );
        assert!(own <= depth, "{name}: {own} own moves in the solution");
        // The header states the goal and the difficulty, nothing of the answer.
        let text = std::fs::read_to_string(path).unwrap();
        let header = text.split("Scenario(").next().unwrap_or("");
        assert!(header.contains("Goal:"), "{name}: no goal in the header");
        assert!(
            mine::difficulty_of(&text).is_some(),
            "{name}: no difficulty"
        );
        for giveaway in ["Solution", "Key:", "Answer", "Position:"] {
            assert!(
                !header.contains(giveaway),
                "{name}: the header says {giveaway}"
            );
        }
    }
}

#[test]
fn the_mined_set_has_sixty_puzzles_of_three_difficulties_for_both_sides() {
    let mut by = std::collections::BTreeMap::<(Difficulty, Side), u32>::new();
    for path in mined_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let (scn, _, _) = load(&path);
        let side = scn.def.puzzle.as_ref().unwrap().side;
        let d = mine::difficulty_of(&text).unwrap();
        *by.entry((d, side)).or_default() += 1;
    }
    let total: u32 = by.values().sum();
    assert!(total >= 60, "{total} mined puzzles: {by:?}");
    for d in Difficulty::ALL {
        assert!(
            by.keys().any(|(x, _)| *x == d),
            "no {} puzzle: {by:?}",
            d.key()
        );
    }
    for side in [Side::Editor, Side::Nixon] {
        assert!(
            by.keys().any(|(_, s)| *s == side),
            "none for {side}: {by:?}"
        );
    }
}

/// Round 8, Nixon to move with four momentum tokens on his card and one
/// card in hand, Secure the support of Baldwin (the position comes from a
/// heuristic self-play game): played for its value or for its action, it
/// lets him force the fifth token onto his card (R8.1) either way, so the
/// position has two solutions and is no puzzle.
const TWO_WINNING_MOVES: &str = r#"Scenario(
    position: Some((
        round: 8,
        phase: Cards,
        initiative: Editor,
        turn: Some(Nixon),
        turns_played: (editor: 4, nixon: 3),
        initiative_token: "0",
        momentum_token: "N2",
        momentum_cards: (editor: 1, nixon: 4),
        momentum_supply: 3,
        track: [
            (token: "blue/green#29", at: "0", face_up: false),
            (token: "green*#22", at: "0", face_up: false),
            (token: "green#17", at: "0", face_up: false),
        ],
        board: [
            (space: "m2", token: "blue#2", face_up: true),
            (space: "m10", token: "blue#5", face_up: false),
            (space: "m6", token: "blue*#6", face_up: true),
            (space: "m12", token: "blue*#7", face_up: false),
            (space: "i1", token: "yellow#10", face_up: false),
            (space: "o5", token: "yellow*#14", face_up: false),
            (space: "o4", token: "green#19", face_up: false),
            (space: "i3", token: "blue/yellow#25", face_up: true),
            (space: "m5", token: "yellow/green#26", face_up: false),
            (space: "m4", token: "blue/green#28", face_up: true),
        ],
        pictures: [
            (name: "Woods", face_up: false),
            (name: "Sloan", face_up: true),
            (name: "Martha Mitchell", face_up: true),
            (name: "McCord", face_up: true),
        ],
        hands: (editor: ["editor.ben_bradlee"], nixon: ["nixon.secure_baldwin"]),
        decks: (
            editor: ["editor.recruit_woods", "editor.recruit_butterfield", "editor.mass_demonstration",
                "editor.recruit_dean", "editor.carl_bernstein", "editor.the_rose_mary_stretch",
                "editor.recruit_baldwin", "editor.bob_woodward"],
            nixon: ["nixon.secure_sloan", "nixon.chuck_colson", "nixon.the_president_speaks",
                "nixon.secure_butterfield", "nixon.a_brilliant_mood", "nixon.john_mitchell",
                "nixon.a_third_rate_burglary_attempt", "nixon.secure_dean", "nixon.howard_hunt",
                "nixon.gordon_liddy"],
        ),
        discards: (
            editor: ["editor.the_saturday_night_massacre", "editor.the_smoking_gun_tape",
                "editor.who_is_paying_the_lawyers"],
            nixon: ["nixon.secure_mccord", "nixon.bob_haldeman", "nixon.presidential_election_1972"],
        ),
        unlisted_cards: Removed,
    )),
)"#;

#[test]
fn a_planted_position_with_two_winning_first_moves_is_rejected() {
    let scn = Scenario::from_text("planted", TWO_WINNING_MOVES, PathBuf::new())
        .unwrap_or_else(|d| panic!("{d}"));
    let r = watergate::data::shipped();
    let s = scn.start(&r).unwrap_or_else(|d| panic!("{d}"));
    // The position is won by force (R8.1) …
    let won = watergate::players::solve::solve(
        &r,
        &s,
        &watergate::players::solve::SolveConfig {
            side: Side::Nixon,
            max_plies: Some(4),
            counts: DepthCounts::Every,
            node_limit: NODES,
        },
    );
    assert_eq!(won.verdict, watergate::players::solve::Verdict::Wins);
    // … but not by one move only: the proof finds two, and the miner keeps nothing.
    match mine::prove(&r, &s, Side::Nixon, 4, DepthCounts::Every, NODES, &|| true) {
        Proof::Several(w) => assert_eq!(w.len(), 2, "{w:?}"),
        other => panic!("expected two winning first moves, got {other:?}"),
    }
    let options = MineOptions {
        depth: 4,
        node_limit: NODES,
        screen_limit: NODES,
        graders: Vec::new(),
        tries: 0,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let found = mine::mine_game(&r, 0, 0, &[(0, s)], &options, &stop);
    assert!(found.puzzles.is_empty(), "{:?}", found.puzzles.len());
    assert_eq!((found.won, found.several), (1, 1));
}

#[test]
fn watergate_solve_agrees_with_the_miner_on_every_mined_puzzle() {
    for path in mined_files() {
        let (scn, _, _) = load(&path);
        let p = scn.def.puzzle.unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_watergate"))
            .arg("solve")
            .arg(&path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{}: {text}", path.display());
        let claim = format!(
            "{} can force a win within {} own decisions.",
            p.side,
            p.depth.unwrap()
        );
        assert!(text.contains(&claim), "{}: {text}", path.display());
    }
}

/// The puzzles of the `*.ron` files in `dir`, by their position and claim
/// (the files' names and provenance differ between a game and its log).
fn puzzles_in(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let scn = Scenario::from_file(&e.path()).unwrap_or_else(|d| panic!("{d}"));
            format!(
                "{:?} {:?}",
                scn.def.position,
                scn.def.puzzle.map(|p| p.solution)
            )
        })
        .collect();
    out.sort();
    out
}

/// Game 0 of a `mine --seed 5 --agents heuristic` run on `r`, written as a
/// game log to `file`; `variant` is the variant the log records.
fn write_log_of_game_0(r: &Rules, file: &Path, variant: Option<&Path>) {
    let agent = watergate::players::agent::AgentSpec::parse("heuristic").unwrap();
    let (start, choices) = mine::self_play(r, &agent, &agent, 5, 0).unwrap();
    let mut log = watergate::formats::log::GameLog::new_game(
        r,
        watergate::lab::sim::game_seed(5, 0),
        watergate::formats::log::players("heuristic", "heuristic"),
    );
    log.start.variant = variant.map(|v| v.to_str().unwrap().to_string());
    let mut s = start;
    for c in choices {
        log.record(r, &s, c);
        s.apply(r, c).unwrap();
    }
    log.outcome = s.outcome();
    log.write(file).unwrap();
}

/// Runs `watergate mine` into `base/out` with the extra arguments.
fn mine_into(base: &Path, out: &str, extra: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(["mine", "--depth", "2", "--tries", "1", "--out"])
        .arg(base.join(out))
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn mining_a_game_log_finds_the_puzzles_of_the_game_it_records() {
    let base = TempFolder::new("wg-mine-logs");
    let file = base.join("game.log.ron");
    write_log_of_game_0(&watergate::data::shipped(), &file, None);
    mine_into(
        &base,
        "played",
        &["--games", "1", "--seed", "5", "--agents", "heuristic"],
    );
    mine_into(&base, "logged", &["--logs", file.to_str().unwrap()]);
    let played = puzzles_in(&base.join("played"));
    assert!(!played.is_empty(), "game 0 of seed 5 holds a puzzle");
    assert_eq!(played, puzzles_in(&base.join("logged")));
}

#[test]
fn a_game_log_is_mined_on_the_rules_it_records() {
    // A game played on a variant records it in its log: `mine --logs`
    // mines it on that variant (not on the shipped game, where its choices
    // do not replay), and its puzzles name the variant.
    let base = TempFolder::new("wg-mine-log-variant");
    let variant =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/variants/four_evidence.ron");
    let r = GameSource {
        data: None,
        variant: Some(variant.clone()),
    }
    .rules()
    .unwrap();
    let file = base.join("game.log.ron");
    write_log_of_game_0(&r, &file, Some(&variant));
    let v = variant.to_str().unwrap();
    mine_into(
        &base,
        "played",
        &[
            "--games",
            "1",
            "--seed",
            "5",
            "--agents",
            "heuristic",
            "--variant",
            v,
        ],
    );
    mine_into(&base, "logged", &["--logs", file.to_str().unwrap()]);
    let played = puzzles_in(&base.join("played"));
    assert!(!played.is_empty(), "game 0 of seed 5 holds a puzzle");
    assert_eq!(played, puzzles_in(&base.join("logged")));
    for e in std::fs::read_dir(base.join("logged")).unwrap().flatten() {
        let scn = Scenario::from_file(&e.path()).unwrap_or_else(|d| panic!("{d}"));
        assert!(
            scn.def
                .variant
                .as_deref()
                .is_some_and(|n| n.ends_with("four_evidence.ron")),
            "{}: {:?}",
            e.path().display(),
            scn.def.variant
        );
    }
}

/// `watergate mine` with quick agents into `out`, the extra arguments after.
fn mine_cmd(out: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_watergate"));
    c.args([
        "mine",
        "--agents",
        "heuristic",
        "--depth",
        "2",
        "--tries",
        "1",
        "--out",
    ])
    .arg(out)
    .args(extra);
    c
}

/// The files of `dir`, by name and text.
fn files_of(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().to_string(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn shards_mined_into_one_folder_and_any_thread_count_give_the_whole_run() {
    // Made here: `--out` makes its folder, not the parents (README,
    // "Output paths").
    let base = TempFolder::new("wg-mine-shards");
    let run = |out: &str, extra: &[&str]| {
        let o = mine_cmd(&base.join(out), extra).output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    run("whole", &["--games", "6", "-j", "2"]);
    run("one-thread", &["--games", "6", "-j", "1"]);
    // The second shard skips the ideas the first one wrote there.
    run("shards", &["--games", "6", "--shard", "1/2"]);
    run("shards", &["--games", "6", "--shard", "2/2"]);
    let whole = files_of(&base.join("whole"));
    assert!(!whole.is_empty());
    assert_eq!(whole, files_of(&base.join("one-thread")));
    assert_eq!(whole, files_of(&base.join("shards")));
}

#[test]
fn ctrl_c_keeps_the_puzzles_found_so_far() {
    // Made by the miner.
    let out = TempFolder::unmade("wg-mine-ctrl-c");
    let child = mine_cmd(&out, &["--games", "100000000", "-j", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for a first puzzle on disk, then press Ctrl-C.
    let start = std::time::Instant::now();
    while std::fs::read_dir(&out).map_or(0, |d| d.count()) == 0 {
        assert!(start.elapsed().as_secs() < 60, "no puzzle within a minute");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let o = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("PARTIAL: interrupted"), "{stdout}");
    // Every puzzle written is whole and proven (the miner writes a file
    // only once its proof is complete).
    let files = files_of(&out);
    assert!(
        stdout.contains(&format!(
            "{} written",
            watergate::game::wording::count(files.len(), "puzzle")
        )),
        "{stdout}"
    );
    for (name, _) in &files {
        let (scn, r, s) = load(&out.join(name));
        let p = scn.def.puzzle.unwrap();
        assert!(matches!(
            mine::prove(
                &r,
                &s,
                p.side,
                p.depth.unwrap(),
                p.depth_counts,
                NODES,
                &|| true
            ),
            Proof::Unique { .. }
        ));
    }
}

/// The figures of a mined file's `// Difficulty:` line: the level, each
/// agent's finds (found, tries), the shortest win and the positions.
fn figures(text: &str) -> (Difficulty, Vec<(u32, u32)>, u32, u64) {
    let line = mine::header_field(text, "Difficulty").expect("a difficulty line");
    let level = mine::difficulty_of(text).unwrap();
    let inner = line
        .split_once('(')
        .and_then(|(_, r)| r.strip_suffix(')'))
        .unwrap();
    let (found, solver) = inner.split_once("; solver: ").unwrap();
    let finds = found
        .trim_start_matches("found by ")
        .split(", ")
        .map(|f| {
            let (_, n) = f.rsplit_once(' ').unwrap();
            let (a, b) = n.split_once('/').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    let number = |s: &str| -> u64 {
        s.split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("no number in `{s}`"))
    };
    let parts: Vec<&str> = solver.split(", ").collect();
    let shortest = number(parts[0]) as u32;
    let nodes = number(parts[parts.len() - 1]);
    (level, finds, shortest, nodes)
}

#[test]
fn every_difficulty_follows_from_its_measured_figures() {
    for path in mined_files() {
        let name = path.display();
        let text = std::fs::read_to_string(&path).unwrap();
        let (level, finds, shortest, nodes) = figures(&text);
        assert_eq!(
            finds.len(),
            3,
            "{name}: heuristic, ismcts:100 and ismcts:1000"
        );
        let finders = finds.iter().filter(|(f, t)| 2 * f > *t).count();
        assert_eq!(
            level,
            Difficulty::of(finders, finds.len(), shortest, nodes),
            "{name}"
        );
        // The shortest forced win is as long as the header says: won within
        // it, not within one decision less.
        let (scn, r, s) = load(&path);
        let side = scn.def.puzzle.unwrap().side;
        let within = |plies| {
            watergate::players::solve::solve(
                &r,
                &s,
                &watergate::players::solve::SolveConfig {
                    side,
                    max_plies: Some(plies),
                    counts: DepthCounts::Own,
                    node_limit: NODES,
                },
            )
            .verdict
        };
        use watergate::players::solve::Verdict;
        assert_eq!(within(shortest), Verdict::Wins, "{name}");
        if shortest > 1 {
            assert_eq!(within(shortest - 1), Verdict::Cannot, "{name}");
        }
    }
}

/// A mined file's header counts its main line as such: the length of the
/// recorded solution, "main line N decisions", never "N in all", which
/// read as the depth at which `solve --depth N` proves the win (it is one
/// line of the proof, and other lines may be longer). Singular where one.
#[test]
fn the_header_names_the_main_line_as_the_main_line() {
    for path in mined_files() {
        let name = path.display();
        let text = std::fs::read_to_string(&path).unwrap();
        let line = mine::header_field(&text, "Difficulty").expect("a difficulty line");
        let scn = Scenario::from_file(&path).unwrap_or_else(|d| panic!("{d}"));
        let n = scn.def.puzzle.unwrap().solution.len();
        let main = if n == 1 {
            "main line 1 decision,".to_string()
        } else {
            format!("main line {n} decisions,")
        };
        assert!(line.contains(&main), "{name}: `{line}` lacks `{main}`");
        assert!(!line.contains(" in all"), "{name}: {line}");
        assert!(!line.contains(" 1 own decisions"), "{name}: {line}");
        assert!(!line.contains(" 1 positions"), "{name}: {line}");
    }
}
