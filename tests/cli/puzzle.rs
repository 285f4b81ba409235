//! `watergate puzzle`: whole attempts scripted through the generic
//! attempt loop (src/app/puzzle.rs), on a shipped puzzle.

use std::cell::RefCell;
use std::io::{self, BufRead, Read, Write};
use std::path::Path;
use std::rc::Rc;
use watergate::app::puzzle::{attempt, AttemptConfig, Ending, Puzzle};
use watergate::formats::scenario::Scenario;
use watergate::game::rules::Rules;
use watergate::game::state::State;

/// Output shared with the scripted player, who reads the screen.
#[derive(Clone, Default)]
struct Screen(Rc<RefCell<Vec<u8>>>);

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Screen {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.borrow()).into_owned()
    }
}

/// A player who asks for a hint at every decision and plays it.
struct FollowsHints {
    screen: Screen,
    pending: Vec<u8>,
    answered: usize,
}

impl Read for FollowsHints {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for FollowsHints {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pending.is_empty() {
            let text = self.screen.text();
            // The last hint not yet played, if the screen shows one.
            let hints: Vec<&str> = text
                .lines()
                .filter_map(|l| l.split("Hint: ").nth(1))
                .collect();
            let line = if hints.len() > self.answered {
                self.answered = hints.len();
                hints[hints.len() - 1].to_string()
            } else {
                "hint".to_string()
            };
            self.pending = format!("{line}\n").into_bytes();
        }
        Ok(&self.pending)
    }
    fn consume(&mut self, n: usize) {
        self.pending.drain(..n);
    }
}

fn puzzle(name: &str) -> (Scenario, Rules, State) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/puzzles")
        .join(name);
    let scn = Scenario::from_file(&path).unwrap_or_else(|d| panic!("{d}"));
    let r = scn
        .rules(&watergate::data::GameSource::shipped())
        .unwrap_or_else(|d| panic!("{d}"));
    let mut s = scn.start(&r).unwrap_or_else(|d| panic!("{d}"));
    scn.play(&r, &mut s).unwrap_or_else(|d| panic!("{d}"));
    (scn, r, s)
}

fn config() -> AttemptConfig {
    AttemptConfig {
        seed: 7,
        node_limit: 5_000_000,
        colour: false,
        thinking: watergate::app::puzzle::quiet_thinking,
        echo: false,
    }
}

const HUNT: &str = "12_howard_hunt.ron";

/// An attempt at the puzzle `name` (after its choices) with `input` typed,
/// `goal` stated and `cfg`: how it ended and everything it wrote.
fn typed_attempt(
    name: &str,
    goal: &str,
    input: &str,
    cfg: &AttemptConfig,
) -> (watergate::app::puzzle::Summary, String) {
    let (scn, r, s) = puzzle(name);
    let def = scn.def.puzzle.as_ref().expect("a puzzle");
    let mut out = Vec::new();
    let a = attempt(
        &r,
        Puzzle {
            def,
            name: &scn.def.name,
            goal,
        },
        &s,
        cfg,
        input.as_bytes(),
        &mut out,
    )
    .expect("no I/O error");
    (a, String::from_utf8_lossy(&out).into_owned())
}

/// Piped answers are written after their prompts, as `play` writes them
/// (the transcript reads as a session at a terminal); a hint asked again
/// at the same position is one hint, not two.
#[test]
fn piped_answers_show_after_their_prompts_and_a_repeated_hint_counts_once() {
    let cfg = AttemptConfig {
        echo: true,
        ..config()
    };
    let (a, text) = typed_attempt(
        HUNT,
        "Nixon to play and win.",
        "hint\nhint\nhint\nquit\n",
        &cfg,
    );
    assert_eq!(a.hints, 1, "{text}");
    let prompts: Vec<&str> = text.lines().filter(|l| l.starts_with("Nixon> ")).collect();
    assert_eq!(
        prompts,
        ["Nixon> hint", "Nixon> hint", "Nixon> hint", "Nixon> quit"],
        "{text}"
    );
    assert!(text.contains("Hints used: 1 "), "{text}");
}

/// Following the solver's hints wins: Howard Hunt's extra turn (Q3), with
/// Chuck Colson's random discard drawn as chance.
#[test]
fn following_the_hints_solves_the_puzzle() {
    let (scn, r, s) = puzzle(HUNT);
    let def = scn.def.puzzle.as_ref().expect("a puzzle");
    let goal = scn.goal().expect("a goal");
    let screen = Screen::default();
    let player = FollowsHints {
        screen: screen.clone(),
        pending: Vec::new(),
        answered: 0,
    };
    let a = attempt(
        &r,
        Puzzle {
            def,
            name: &scn.def.name,
            goal: &goal,
        },
        &s,
        &config(),
        player,
        screen.clone(),
    )
    .expect("no I/O error");
    let text = screen.text();
    assert_eq!(a.ending, Ending::Solved, "{text}");
    assert!(a.hints >= 2, "{text}");
    assert!(!a.revealed);
    assert_eq!(
        a.moves.first().map(String::as_str),
        Some("nixon.howard_hunt action")
    );
    assert!(
        text.starts_with(&format!("Puzzle: {}\nGoal: {goal}\n", scn.def.name)),
        "{text}"
    );
    assert!(text.contains("Chance: discard editor."), "{text}");
    assert!(
        text.contains("Solved.") && text.contains("Hints used: "),
        "{text}"
    );
    assert!(text.contains("solution revealed: no"), "{text}");
}

/// A move after which the win cannot be forced is answered with the
/// solver's best defence and the attempt is lost.
#[test]
fn a_wrong_move_is_answered_and_the_attempt_lost() {
    let (a, text) = typed_attempt(
        HUNT,
        "Nixon to play and win.",
        "secure_mccord value\n",
        &config(),
    );
    assert!(matches!(a.ending, Ending::Failed(_)), "{text}");
    // Long lines are wrapped to 80 columns: read as words.
    let words = flat(&text);
    assert!(
        words.contains("the win can no longer be forced within the round"),
        "{text}"
    );
    assert!(words.contains("best defence from here: "), "{text}");
    assert!(text.contains("Not solved"), "{text}");
}

/// The solution stays hidden until `reveal`; then it is shown and counted.
#[test]
fn the_solution_is_shown_only_on_reveal() {
    let (scn, _, _) = puzzle(HUNT);
    let def = scn.def.puzzle.as_ref().expect("a puzzle");
    let (a, text) = typed_attempt(HUNT, "Nixon to play and win.", "reveal\nquit\n", &config());
    let (before, after) = text.split_once("Nixon> ").expect("a prompt");
    assert!(!before.contains("chuck_colson action"), "{before}");
    assert!(!before.contains(&def.theme), "{before}");
    assert!(flat(after).contains(&def.solution.join(" · ")), "{after}");
    assert!(a.revealed);
    assert_eq!(a.ending, Ending::Quit);
    assert!(text.contains("solution revealed: yes"), "{text}");
}

/// A solver that runs out of positions can neither judge the player's move
/// nor answer with its best defence: a win reached that way is not called
/// solved. Here the first move loses against the best defence (the
/// solution is the Editor's Mass demonstration for its value), but 30
/// positions are too few to see it.
#[test]
fn a_win_the_solver_could_not_check_is_not_called_solved() {
    let cfg = AttemptConfig {
        node_limit: 30,
        seed: 1,
        ..config()
    };
    let (a, text) = typed_attempt("06_deep_throat.ron", "Editor to play and win.", "editor.deep_throat action\neditor.recruit_mccord action\nreact editor.mass_demonstration\n", &cfg);
    assert_eq!(a.ending, Ending::Solved, "{text}");
    assert!(text.contains("The solver ran out of positions"), "{text}");
    assert!(!text.contains("Solved."), "{text}");
    assert!(
        text.contains("Won, but not proven solved: the solver ran out of positions"),
        "{text}"
    );
}

/// A mined puzzle claims a win within its own decisions (`depth`, counting
/// only the side's): a wrong first move is judged against the decisions
/// left, not the round, where the win may still come later.
#[test]
fn a_wrong_move_is_judged_against_the_decisions_left() {
    use watergate::game::engine::notation::outcome_name;
    let (scn, r, s) = puzzle("mined/s1_g0000_d098_nixon.ron");
    let def = scn.def.puzzle.as_ref().expect("a puzzle");
    let depth = def.depth.expect("a mined puzzle has a depth");
    let mut options = Vec::new();
    s.legal(&r, &mut options).expect("a decision");
    let wrong = options
        .iter()
        .map(|c| outcome_name(&r, &s, *c))
        .find(|name| *name != def.solution[0])
        .expect("another option");
    let (a, text) = typed_attempt(
        "mined/s1_g0000_d098_nixon.ron",
        "Nixon to move.",
        &format!("{wrong}\n"),
        &config(),
    );
    assert!(matches!(a.ending, Ending::Failed(_)), "{text}");
    let left = format!(
        "After `{wrong}` the win can no longer be forced within the {} own decisions left.",
        depth - 1
    );
    assert!(flat(&text).contains(&left), "{text}");
}

/// The words of `text`, one space apart: what a wrapped line says.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The whole position a puzzle shows includes what the bag may give, by
/// kind: the solver weighs every draw by it, so the player sees it too
/// (it showed a count only). Puzzle 12's bag holds blue, green, blue.
#[test]
fn the_puzzle_shows_the_bag_by_kind() {
    let (_, text) = typed_attempt(HUNT, "Nixon to play and win.", "quit\n", &config());
    assert!(
        text.contains("bag: 3 evidence tokens (blue ×2, green)"),
        "{text}"
    );
}
