//! Attempting a puzzle (`watergate puzzle FILE`): the goal is stated, the
//! player plays the puzzle's side, the solver answers with its best defence,
//! and chance outcomes are drawn by their weights. `hint` asks the solver for
//! a winning move, `reveal` shows the recorded solution; a move after which
//! the win can no longer be forced is answered and the attempt is lost. A
//! summary ends every attempt. The whole position is shown (the solver
//! sees it all, so the player does too). Generic over `BufRead`/`Write`, so tests
//! script a whole attempt. The attempt itself (what a move does, when it
//! is lost) is `session::puzzle`'s, which the studio plays too; this is
//! its input and output.

use crate::app::session::answer::{self, Answer, Reading};
use crate::app::session::puzzle::{self, Bounds, Mover, Tell};
use crate::app::session::the;
use crate::app::terminal::bullet;
use crate::formats::render::{self, Style};
use crate::formats::scenario::format::PuzzleDef;
use crate::game::engine::{Choice, Decision};
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::game::state::State;
use std::io::{self, BufRead, Write};

pub use crate::app::session::puzzle::Ending;

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
    /// Writes each answer read after its prompt: with input from a pipe
    /// nothing else shows it, and the transcript should read as a session
    /// at a terminal does (as `play` does).
    pub echo: bool,
}

/// The summary of an attempt.
#[derive(Clone, Debug)]
pub struct Summary {
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
    game: puzzle::Attempt,
}

/// What the terminal shows of an attempt as it goes: each choice, its
/// narration, and a bar while the solver thinks.
struct Screen<'a, W> {
    out: &'a mut W,
    cfg: &'a AttemptConfig,
}

impl<W: Write> Tell for Screen<'_, W> {
    type Error = io::Error;

    fn thinking(&self) -> Box<dyn Fn(u64) -> bool + '_> {
        (self.cfg.thinking)(self.cfg.node_limit)
    }

    fn note(&mut self, line: &str) -> io::Result<()> {
        say(self.out, line)
    }

    fn took(
        &mut self,
        who: Mover,
        name: &str,
        told: Result<Vec<String>, String>,
    ) -> io::Result<Option<Ending>> {
        match who {
            Mover::Chance => writeln!(self.out, "Chance: {name}.")?,
            Mover::Solver(side) => writeln!(self.out, "{side}: {name}")?,
            // The player typed it.
            Mover::Player(_) => {}
        }
        match told {
            Ok(lines) => {
                for line in lines {
                    writeln!(self.out, "{}", bullet(&line))?;
                }
            }
            Err(e) => say(self.out, &format!("That choice failed: {e}"))?,
        }
        Ok(None)
    }
}

/// `text` in lines that fit in [`render::WIDTH`] (as `play` says its
/// words), its own line breaks kept.
fn say<W: Write>(out: &mut W, text: &str) -> io::Result<()> {
    for paragraph in text.lines() {
        if paragraph.trim().is_empty() {
            writeln!(out)?;
        }
        for line in render::wrap(paragraph, render::WIDTH) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
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
) -> io::Result<Summary> {
    let (p, name, goal) = (puzzle.def, puzzle.name, puzzle.goal);
    let bounds = Bounds {
        node_limit: cfg.node_limit,
        named: "positions",
    };
    let mut run = Run {
        r,
        p,
        cfg,
        input,
        out,
        game: puzzle::Attempt::new(p, start, cfg.seed, bounds),
    };
    if !name.is_empty() {
        say(&mut run.out, &format!("Puzzle: {name}"))?;
    }
    say(&mut run.out, &format!("Goal: {goal}"))?;
    say(
        &mut run.out,
        &format!(
            "You play {}; the solver plays {} with its best defence. Type `help` for the commands.",
            the(p.side),
            the(p.side.other())
        ),
    )?;
    let ending = run.play()?;
    run.summary(&ending)?;
    let game = run.game;
    Ok(Summary {
        ending,
        moves: game.moves,
        hints: game.hints,
        revealed: game.revealed,
    })
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

impl<R: BufRead, W: Write> Run<'_, R, W> {
    /// The attempt, decision by decision, to its ending.
    fn play(&mut self) -> io::Result<Ending> {
        loop {
            let mut screen = Screen {
                out: &mut self.out,
                cfg: self.cfg,
            };
            let Some(d) = self.game.advance(self.r, &mut screen)? else {
                return Ok(self.game.ending.clone().unwrap_or(Ending::Quit));
            };
            let side = self.p.side;
            self.show(side, &d)?;
            let Some(c) = self.ask(side, &d)? else {
                self.game.ending = Some(Ending::Quit);
                return Ok(Ending::Quit);
            };
            let mut screen = Screen {
                out: &mut self.out,
                cfg: self.cfg,
            };
            self.game.play(self.r, c, &mut screen)?;
        }
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
        let body = render::position_with(self.r, &self.game.s, &st, true);
        for line in body.lines().skip(1) {
            writeln!(self.out, "{line}")?;
        }
        writeln!(self.out)?;
        let asked = crate::app::terminal::decision_text(self.r, side, &d.kind);
        for line in render::wrap(&asked, render::WIDTH) {
            writeln!(self.out, "{}", st.bold(&line))?;
        }
        for line in crate::app::terminal::option_lines(self.r, &self.game.s, side, &d.options) {
            writeln!(self.out, "{line}")?;
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
            if self.cfg.echo {
                writeln!(self.out, "{}", line.trim_end_matches(['\n', '\r']))?;
            }
            let text = line.trim();
            match text.to_ascii_lowercase().as_str() {
                "" => continue,
                "help" | "?" => writeln!(self.out, "{HELP}")?,
                "board" | "show" => self.show(side, d)?,
                "quit" | "exit" => return Ok(None),
                "hint" => {
                    let hint = {
                        let thinking = (self.cfg.thinking)(self.cfg.node_limit);
                        self.game.hint(self.r, &*thinking)
                    };
                    say(&mut self.out, &hint)?;
                }
                "reveal" => {
                    self.game.revealed = true;
                    if !self.p.theme.is_empty() {
                        say(&mut self.out, &format!("Theme: {}", self.p.theme))?;
                    }
                    for line in &self.p.explanation {
                        // Kept under its own first column, as written.
                        let indent = line.len() - line.trim_start().len();
                        let room = render::WIDTH - 2 - indent.min(20);
                        for part in render::wrap(line, room) {
                            writeln!(self.out, "  {}{part}", " ".repeat(indent.min(20)))?;
                        }
                    }
                    if self.p.solution.is_empty() {
                        writeln!(self.out, "This puzzle records no solution.")?;
                    } else {
                        say(
                            &mut self.out,
                            &format!("Solution (from the start): {}", self.p.solution.join(" · ")),
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
                        Err(refused) => say(&mut self.out, &refused.sentence())?,
                    }
                }
            }
        }
    }

    fn summary(&mut self, ending: &Ending) -> io::Result<()> {
        let a = &self.game;
        writeln!(self.out)?;
        let verdict = a.verdict(ending);
        say(&mut self.out, &verdict)?;
        say(
            &mut self.out,
            &format!(
                "Your moves: {}",
                if a.moves.is_empty() {
                    "none".to_string()
                } else {
                    a.moves.join(" · ")
                }
            ),
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
