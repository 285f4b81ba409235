//! Attempting a puzzle (`watergate puzzle FILE`): the goal is stated, the
//! player plays the puzzle's side, the solver answers with its best defence,
//! and chance outcomes are drawn by their weights. `hint` asks the solver for
//! a winning move, `reveal` shows the recorded solution; a move after which
//! the win can no longer be forced is answered and the attempt is lost. A
//! summary ends every attempt. The whole position is shown (the solver
//! sees it all, so the player does too). Generic over `BufRead`/`Write`, so tests
//! script a whole attempt.

use crate::app::session::answer::{self, Answer, Reading};
use crate::formats::narrate::narrate;
use crate::formats::render::Style;
use crate::formats::scenario::format::PuzzleDef;
use crate::game::engine::notation::outcome_name;
use crate::game::engine::{Actor, Choice, Decision, DecisionKind};
use crate::game::model::Side;
use crate::game::observation::Sight;
use crate::game::rules::Rules;
use crate::game::state::{Phase, State};
use crate::players::solve::{SolveConfig, SolveResult, Verdict};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::io::{self, BufRead, Write};

/// How an attempt is run.
#[derive(Clone, Debug)]
pub struct AttemptConfig {
    /// Seeds the draws of chance outcomes.
    pub seed: u64,
    /// The solver's node limit for each answer and hint.
    pub node_limit: u64,
    pub colour: bool,
    /// What to show while the solver thinks.
    pub thinking: Thinking,
}

/// How an attempt ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side won.
    Solved,
    /// A move let the opponent escape (its text), or the horizon passed
    /// without a win.
    Failed(String),
    /// The player stopped (or the input ended).
    Quit,
}

/// The summary of an attempt.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub ending: Ending,
    /// The player's moves, in notation.
    pub moves: Vec<String>,
    pub hints: u32,
    pub revealed: bool,
}

const HELP: &str = "\
Answer with the number of an option or with its notation (`ev2`, `pass`,
`editor.ben_bradlee value`…). Commands:
  hint          the solver's move from here (counted in the summary)
  reveal        the recorded solution (counted in the summary)
  board, show   draw the position again
  help          this text
  quit          give up";

struct Run<'a, R, W> {
    r: &'a Rules,
    p: &'a PuzzleDef,
    cfg: &'a AttemptConfig,
    input: R,
    out: W,
    game: Session,
    attempt: Attempt,
}

/// The rules of an attempt without its input and output: the position,
/// the decisions taken against the horizon, the chance draws, and when the
/// attempt is over. The terminal (`attempt`) and the studio's puzzle page
/// both play through it, so they judge a move the same way.
#[derive(Clone, Debug)]
pub struct Session {
    pub s: State,
    /// Decisions taken so far (the horizon is counted in decisions).
    pub plies: u32,
    round: u16,
    chance: Pcg64Mcg,
    side: Side,
    depth: Option<u32>,
}

impl Session {
    /// A session from `start` for the puzzle `p`, chance drawn from `seed`.
    pub fn new(p: &PuzzleDef, start: &State, seed: u64) -> Session {
        let mut s = start.clone();
        // Chance is drawn here, by weights, so the solver and the attempt agree
        // on what a random event may give.
        s.set_explicit_chance(true);
        Session {
            round: s.round(),
            s,
            plies: 0,
            chance: Pcg64Mcg::seed_from_u64(seed),
            side: p.side,
            depth: p.depth,
        }
    }

    /// Decisions left before the horizon (`None`: to the end of the round).
    pub fn left(&self) -> Option<u32> {
        self.depth.map(|d| d.saturating_sub(self.plies))
    }

    /// The solver on the position as it is, for the puzzle's side.
    pub fn solve_here(
        &self,
        r: &Rules,
        node_limit: u64,
        watch: &dyn Fn(u64) -> bool,
    ) -> SolveResult {
        crate::players::solve::solve_watched(
            r,
            &self.s,
            &SolveConfig {
                side: self.side,
                max_plies: self.left(),
                node_limit,
            },
            watch,
        )
    }

    /// How the attempt ended, if it has.
    pub fn over(&self) -> Option<Ending> {
        if let Some(o) = self.s.outcome() {
            return Some(if o.winner == self.side {
                Ending::Solved
            } else {
                Ending::Failed(format!("{} won ({})", o.winner, o.cause.describe()))
            });
        }
        if self.s.round() != self.round || self.s.phase() == Phase::Initial {
            return Some(Ending::Failed("the round ended without a win".into()));
        }
        if self.left() == Some(0) {
            return Some(Ending::Failed(
                "the puzzle's number of decisions ran out without a win".into(),
            ));
        }
        None
    }

    /// A chance outcome by its weights.
    pub fn draw(&mut self, r: &Rules, options: &[Choice]) -> Choice {
        let weights = match self.s.decision_kind(r) {
            DecisionKind::Chance { weights, .. } if weights.len() == options.len() => weights,
            _ => vec![1; options.len()],
        };
        let total: u64 = weights.iter().map(|w| *w as u64).sum::<u64>().max(1);
        let mut x = self.chance.next_u64() % total;
        for (c, w) in options.iter().zip(&weights) {
            if x < *w as u64 {
                return *c;
            }
            x -= *w as u64;
        }
        options[0]
    }

    /// Applies a choice; the narration of what happened (the whole
    /// position is open in a puzzle), or why the choice failed.
    pub fn take(&mut self, r: &Rules, c: Choice) -> Result<Vec<String>, String> {
        let mut events = Vec::new();
        self.s
            .apply_observed(r, c, &mut events)
            .map_err(|e| e.to_string())?;
        self.plies += 1;
        Ok(narrate(r, None, &Sight::everything().see_all(&events)))
    }

    /// After the player's move: the solver's best defence when the puzzle
    /// claims a win and the win can no longer be forced (the move was
    /// wrong), else `None`.
    pub fn slipped(
        &self,
        r: &Rules,
        p: &PuzzleDef,
        node_limit: u64,
        watch: &dyn Fn(u64) -> bool,
    ) -> Option<SolveResult> {
        if !p.wins || self.over().is_some() {
            return None;
        }
        let after = self.solve_here(r, node_limit, watch);
        (after.verdict == Verdict::Cannot).then_some(after)
    }

    /// The solver's answer for the opponent: its best defence among
    /// `options`, or the first option when it found none; `true` when that
    /// is because the solver ran out of positions.
    pub fn defence(
        &self,
        r: &Rules,
        options: &[Choice],
        node_limit: u64,
        watch: &dyn Fn(u64) -> bool,
    ) -> (Choice, bool) {
        let result = self.solve_here(r, node_limit, watch);
        match result.best.filter(|c| options.contains(c)) {
            Some(c) => (c, false),
            None => (options[0], result.verdict == Verdict::Unknown),
        }
    }
}

/// The puzzle as the player meets it.
#[derive(Clone, Copy, Debug)]
pub struct Puzzle<'a> {
    pub def: &'a PuzzleDef,
    pub name: &'a str,
    /// The goal stated at the start (never the solution).
    pub goal: &'a str,
}

/// Attempts `puzzle` from `start` (the position after the scenario's
/// choices). Reads the player's answers from `input` and writes everything
/// to `out`.
pub fn attempt<R: BufRead, W: Write>(
    r: &Rules,
    puzzle: Puzzle,
    start: &State,
    cfg: &AttemptConfig,
    input: R,
    out: W,
) -> io::Result<Attempt> {
    let (p, name, goal) = (puzzle.def, puzzle.name, puzzle.goal);
    let mut run = Run {
        r,
        p,
        cfg,
        input,
        out,
        game: Session::new(p, start, cfg.seed),
        attempt: Attempt {
            ending: Ending::Quit,
            moves: Vec::new(),
            hints: 0,
            revealed: false,
        },
    };
    if !name.is_empty() {
        writeln!(run.out, "Puzzle: {name}")?;
    }
    writeln!(run.out, "Goal: {goal}")?;
    writeln!(
        run.out,
        "You play {}; the solver plays {} with its best defence. Type `help` for the commands.",
        the(p.side),
        the(p.side.other())
    )?;
    run.attempt.ending = run.play()?;
    run.summary()?;
    Ok(run.attempt)
}

/// What to show while the solver thinks (a hard puzzle's answer takes
/// seconds): made for each search with its node limit, then told the
/// positions searched so far; dropped when the search ends. The command
/// line draws a bar; `quiet_thinking` shows nothing.
pub type Thinking = fn(u64) -> Box<dyn Fn(u64) -> bool>;

/// Shows nothing while the solver thinks.
pub fn quiet_thinking(_node_limit: u64) -> Box<dyn Fn(u64) -> bool> {
    Box::new(|_| true)
}

fn the(side: Side) -> &'static str {
    match side {
        Side::Editor => "the Editor",
        Side::Nixon => "Nixon",
    }
}

impl<R: BufRead, W: Write> Run<'_, R, W> {
    /// What is shown while one search runs (dropped when it ends).
    fn thinking(&self) -> Box<dyn Fn(u64) -> bool> {
        (self.cfg.thinking)(self.cfg.node_limit)
    }

    fn solve_here(&self) -> SolveResult {
        let thinking = self.thinking();
        self.game
            .solve_here(self.r, self.cfg.node_limit, &|n| thinking(n))
    }

    fn over(&self) -> Option<Ending> {
        self.game.over()
    }

    fn play(&mut self) -> io::Result<Ending> {
        let mut options = Vec::new();
        loop {
            if let Some(end) = self.over() {
                return Ok(end);
            }
            let Some(actor) = self.game.s.legal(self.r, &mut options) else {
                return Ok(Ending::Failed("the game is over".into()));
            };
            match actor {
                Actor::Chance => {
                    let c = self.draw(&options);
                    writeln!(
                        self.out,
                        "Chance: {}.",
                        outcome_name(self.r, &self.game.s, c)
                    )?;
                    self.take(c)?;
                }
                Actor::Player(side) if side != self.p.side => {
                    let (c, ran_out) = {
                        let thinking = self.thinking();
                        self.game
                            .defence(self.r, &options, self.cfg.node_limit, &|n| thinking(n))
                    };
                    if ran_out {
                        writeln!(
                            self.out,
                            "(The solver ran out of positions; {side} takes the first option.)"
                        )?;
                    }
                    writeln!(
                        self.out,
                        "{side}: {}",
                        outcome_name(self.r, &self.game.s, c)
                    )?;
                    self.take(c)?;
                }
                Actor::Player(side) => {
                    let d = Decision {
                        actor,
                        kind: self.game.s.decision_kind(self.r),
                        options: options.clone(),
                    };
                    self.show(side, &d)?;
                    let Some(c) = self.ask(side, &d)? else {
                        return Ok(Ending::Quit);
                    };
                    let text = outcome_name(self.r, &self.game.s, c);
                    self.attempt.moves.push(text.clone());
                    self.take(c)?;
                    if self.over().is_some() {
                        continue;
                    }
                    let slipped = {
                        let thinking = self.thinking();
                        self.game
                            .slipped(self.r, self.p, self.cfg.node_limit, &|n| thinking(n))
                    };
                    if let Some(after) = slipped {
                        writeln!(self.out, "After `{text}` the win can no longer be forced.")?;
                        if !after.line.is_empty() {
                            let line: Vec<String> = after
                                .line
                                .iter()
                                .map(|(who, c)| format!("{who}: {c}"))
                                .collect();
                            writeln!(
                                self.out,
                                "The solver's answer, its best defence from here: {}",
                                line.join(" · ")
                            )?;
                        }
                        return Ok(Ending::Failed(format!("`{text}` let the win slip")));
                    }
                }
            }
        }
    }

    fn draw(&mut self, options: &[Choice]) -> Choice {
        self.game.draw(self.r, options)
    }

    /// Applies a choice and tells the player what they may see of it.
    fn take(&mut self, c: Choice) -> io::Result<()> {
        match self.game.take(self.r, c) {
            Ok(lines) => {
                for line in lines {
                    writeln!(self.out, "  • {line}")?;
                }
            }
            Err(e) => writeln!(self.out, "That choice failed: {e}")?,
        }
        Ok(())
    }

    /// The whole position (a puzzle hides nothing: the solver sees it all,
    /// so the player does too), the decision and its numbered options.
    fn show(&mut self, side: Side, d: &Decision) -> io::Result<()> {
        let st = Style {
            colour: self.cfg.colour,
            viewer: None,
        };
        writeln!(self.out)?;
        writeln!(
            self.out,
            "════ {side} to decide — round {}, the whole position ════",
            self.game.s.round()
        )?;
        let body = crate::formats::render::position_with(self.r, &self.game.s, &st, true);
        for line in body.lines().skip(1) {
            writeln!(self.out, "{line}")?;
        }
        writeln!(self.out)?;
        writeln!(
            self.out,
            "{}",
            st.bold(&crate::app::terminal::decision_text(self.r, side, &d.kind))
        )?;
        let names: Vec<String> = d
            .options
            .iter()
            .map(|c| crate::game::engine::notation::format_choice(self.r, &self.game.s, *c))
            .collect();
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        for (i, (c, name)) in d.options.iter().zip(&names).enumerate() {
            writeln!(
                self.out,
                "  {:>2}. {name:<width$}  {}",
                i + 1,
                crate::game::engine::notation::describe_choice(self.r, &self.game.s, side, *c)
            )?;
        }
        Ok(())
    }

    /// The player's answer: a choice, or `None` to stop.
    fn ask(&mut self, side: Side, d: &Decision) -> io::Result<Option<Choice>> {
        loop {
            write!(self.out, "{side}> ")?;
            self.out.flush()?;
            let mut buf = Vec::new();
            if self.input.read_until(b'\n', &mut buf)? == 0 {
                writeln!(self.out)?;
                writeln!(self.out, "End of input.")?;
                return Ok(None);
            }
            let line = String::from_utf8_lossy(&buf);
            let text = line.trim();
            match text.to_ascii_lowercase().as_str() {
                "" => continue,
                "help" | "?" => writeln!(self.out, "{HELP}")?,
                "board" | "show" => self.show(side, d)?,
                "quit" | "exit" => return Ok(None),
                "hint" => {
                    self.attempt.hints += 1;
                    let result = self.solve_here();
                    match (result.verdict, result.best) {
                        (Verdict::Wins, Some(c)) => {
                            writeln!(self.out, "Hint: {}", outcome_name(self.r, &self.game.s, c))?
                        }
                        (Verdict::Unknown, _) => writeln!(
                            self.out,
                            "Hint: the solver ran out of positions before finding a move."
                        )?,
                        _ => writeln!(
                            self.out,
                            "Hint: no move forces the win from here; the solver would play {}.",
                            result
                                .best
                                .map(|c| outcome_name(self.r, &self.game.s, c))
                                .unwrap_or_else(|| "anything".into())
                        )?,
                    }
                }
                "reveal" => {
                    self.attempt.revealed = true;
                    if !self.p.theme.is_empty() {
                        writeln!(self.out, "Theme: {}", self.p.theme)?;
                    }
                    for line in &self.p.explanation {
                        writeln!(self.out, "  {line}")?;
                    }
                    if self.p.solution.is_empty() {
                        writeln!(self.out, "This puzzle records no solution.")?;
                    } else {
                        writeln!(
                            self.out,
                            "Solution (from the start): {}",
                            self.p.solution.join(" · ")
                        )?;
                    }
                }
                _ => {
                    let reading = Reading {
                        first: 1,
                        explain: None,
                    };
                    let answer = Answer::typed(text);
                    match answer::choice(self.r, &self.game.s, answer, &d.options, reading) {
                        Ok(c) => return Ok(Some(c)),
                        Err(refused) => writeln!(self.out, "{}", refused.sentence())?,
                    }
                }
            }
        }
    }

    fn summary(&mut self) -> io::Result<()> {
        let a = &self.attempt;
        writeln!(self.out)?;
        let verdict = match &a.ending {
            Ending::Solved => "Solved.".to_string(),
            Ending::Failed(why) if !self.p.wins => format!(
                "Not solved: {why}. As the puzzle claims, {} cannot force a win here.",
                the(self.p.side)
            ),
            Ending::Failed(why) => format!("Not solved: {why}."),
            Ending::Quit => "Stopped before the end.".to_string(),
        };
        writeln!(self.out, "{verdict}")?;
        writeln!(
            self.out,
            "Your moves: {}",
            if a.moves.is_empty() {
                "none".to_string()
            } else {
                a.moves.join(" · ")
            }
        )?;
        writeln!(
            self.out,
            "Hints used: {} · solution revealed: {}",
            a.hints,
            if a.revealed { "yes" } else { "no" }
        )?;
        Ok(())
    }
}
