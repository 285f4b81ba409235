//! One attempt at a puzzle, without its input and output: the position,
//! the decisions taken against the puzzle's horizon, the chance draws, the
//! solver's best defence, when a move lets the win slip, and what the
//! player did (moves, hints, the solution revealed). `watergate puzzle`
//! (`app/puzzle.rs`) and the studio's Puzzles page (`server/puzzles.rs`)
//! both play an attempt through [`Attempt::advance`] and [`Attempt::play`]
//! and tell what happens their own way ([`Tell`]), so they judge a move
//! the same way.

use super::chance;
use super::the;
use crate::formats::narrate::narrate;
use crate::formats::scenario::format::PuzzleDef;
use crate::game::engine::notation::outcome_name;
use crate::game::engine::{Actor, Choice, Decision};
use crate::game::model::Side;
use crate::game::observation::Sight;
use crate::game::rules::Rules;
use crate::game::state::{Phase, State};
use crate::players::solve::{DepthCounts, SolveConfig, SolveResult, Verdict};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

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

/// How far the solver searches for each answer and hint.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub node_limit: u64,
    /// What stops a search, as the messages name it: `positions`, or
    /// `positions or time` where a clock stops it too (the studio).
    pub named: &'static str,
}

/// Who takes a choice of the attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    Chance,
    /// The solver, for the opponent's side.
    Solver(Side),
    /// The player, for the puzzle's side.
    Player(Side),
}

/// How a front end tells what happens in an attempt.
pub trait Tell {
    type Error;
    /// What watches a search about to run: told the positions searched so
    /// far, it answers whether to go on; dropped when the search ends.
    fn thinking(&self) -> Box<dyn Fn(u64) -> bool + '_>;
    /// A line to show as it is.
    fn note(&mut self, line: &str) -> Result<(), Self::Error>;
    /// `who` took the choice named `name`: what it told (the narration, the
    /// whole position being open), or why it failed. The attempt ends here
    /// when this answers an ending.
    fn took(
        &mut self,
        who: Mover,
        name: &str,
        told: Result<Vec<String>, String>,
    ) -> Result<Option<Ending>, Self::Error>;
}

/// An attempt at a puzzle: its position and its record.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub s: State,
    /// Decisions taken so far that the horizon counts (every decision, or
    /// only the side's own: `counts`).
    pub plies: u32,
    round: u16,
    chance: Pcg64Mcg,
    side: Side,
    depth: Option<u32>,
    counts: DepthCounts,
    /// Whether the puzzle claims a win (else: that none can be forced).
    wins: bool,
    bounds: Bounds,
    /// The player's moves, in notation.
    pub moves: Vec<String>,
    /// Hints asked, each position counted once (asked again there, the
    /// same hint comes: nothing more was learned).
    pub hints: u32,
    /// The ply of the last hint.
    hinted_at: Option<u32>,
    pub revealed: bool,
    /// How the attempt ended; `None` while it goes on.
    pub ending: Option<Ending>,
    /// Searches that ran out of positions (or time) before settling: the
    /// solver's defence, or its judgement of a move, may then be wrong, and
    /// the verdict says so.
    pub unsettled: u32,
}

impl Attempt {
    /// An attempt from `start` at the puzzle `p`, chance drawn from `seed`.
    pub fn new(p: &PuzzleDef, start: &State, seed: u64, bounds: Bounds) -> Attempt {
        let mut s = start.clone();
        // Chance is drawn here, by weights, so the solver and the attempt
        // agree on what a random event may give.
        s.set_explicit_chance(true);
        Attempt {
            round: s.round(),
            s,
            plies: 0,
            chance: Pcg64Mcg::seed_from_u64(seed),
            side: p.side,
            depth: p.depth,
            counts: p.depth_counts,
            wins: p.wins,
            bounds,
            moves: Vec::new(),
            hints: 0,
            hinted_at: None,
            revealed: false,
            ending: None,
            unsettled: 0,
        }
    }

    /// Decisions left before the horizon (`None`: to the end of the round).
    pub fn left(&self) -> Option<u32> {
        self.depth.map(|d| d.saturating_sub(self.plies))
    }

    /// The solver on the position as it is, for the puzzle's side.
    pub fn solve_here(&self, r: &Rules, watch: &dyn Fn(u64) -> bool) -> SolveResult {
        crate::players::solve::solve_watched(
            r,
            &self.s,
            &SolveConfig {
                side: self.side,
                max_plies: self.left(),
                counts: self.counts,
                node_limit: self.bounds.node_limit,
            },
            watch,
        )
    }

    /// How the position ends the attempt, if it does.
    pub fn over(&self, r: &Rules) -> Option<Ending> {
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
        // Counting own decisions, the opponent's and chance's after the
        // last one may still bring the win.
        let own_turn = self.s.to_move(r) == Some(Actor::Player(self.side));
        if self.left() == Some(0) && (self.counts == DepthCounts::Every || own_turn) {
            return Some(Ending::Failed(
                "the puzzle's number of decisions ran out without a win".into(),
            ));
        }
        None
    }

    /// Applies a choice; the narration of what happened (the whole
    /// position is open in a puzzle), or why the choice failed.
    fn take(&mut self, r: &Rules, c: Choice) -> Result<Vec<String>, String> {
        let mut events = Vec::new();
        let counted = self.counts == DepthCounts::Every
            || self.s.to_move(r) == Some(Actor::Player(self.side));
        self.s
            .apply_observed(r, c, &mut events)
            .map_err(|e| e.to_string())?;
        if counted {
            self.plies += 1;
        }
        Ok(narrate(r, None, &Sight::everything().see_all(&events)))
    }

    /// Takes `c` for `who` and tells it.
    fn take_told<T: Tell>(
        &mut self,
        r: &Rules,
        who: Mover,
        c: Choice,
        tell: &mut T,
    ) -> Result<(), T::Error> {
        let name = outcome_name(r, &self.s, c);
        let told = self.take(r, c);
        if let Some(end) = tell.took(who, &name, told)? {
            self.ending = Some(end);
        }
        Ok(())
    }

    /// Plays chance and the solver's answers until the player decides (the
    /// decision) or the attempt is over (`None`, and [`Attempt::ending`]
    /// says how).
    pub fn advance<T: Tell>(
        &mut self,
        r: &Rules,
        tell: &mut T,
    ) -> Result<Option<Decision>, T::Error> {
        let mut options = Vec::new();
        while self.ending.is_none() {
            if let Some(end) = self.over(r) {
                self.ending = Some(end);
                break;
            }
            let Some(actor) = self.s.legal(r, &mut options) else {
                self.ending = Some(Ending::Failed("the game is over".into()));
                break;
            };
            match actor {
                Actor::Chance => {
                    let c = chance::draw(r, &mut self.chance, &self.s, &options);
                    self.take_told(r, Mover::Chance, c, tell)?;
                }
                Actor::Player(side) if side != self.side => {
                    let (c, ran_out) = {
                        let thinking = tell.thinking();
                        self.defence(r, &options, &*thinking)
                    };
                    if ran_out {
                        self.unsettled += 1;
                        tell.note(&format!(
                            "(The solver ran out of {}; {side} takes the first option.)",
                            self.bounds.named
                        ))?;
                    }
                    self.take_told(r, Mover::Solver(side), c, tell)?;
                }
                Actor::Player(_) => {
                    return Ok(Some(Decision {
                        actor,
                        kind: self.s.decision_kind(r),
                        options,
                    }))
                }
            }
        }
        Ok(None)
    }

    /// The player's move `c` (one of the options of their decision): taken
    /// and told, and when the puzzle claims a win that the move lets slip,
    /// the solver's answer and the attempt lost.
    pub fn play<T: Tell>(&mut self, r: &Rules, c: Choice, tell: &mut T) -> Result<(), T::Error> {
        let text = outcome_name(r, &self.s, c);
        self.moves.push(text.clone());
        self.take_told(r, Mover::Player(self.side), c, tell)?;
        if self.ending.is_some() || self.over(r).is_some() {
            // Over, or failed: the next `advance` says how.
            return Ok(());
        }
        let slipped = {
            let thinking = tell.thinking();
            self.slipped(r, &*thinking)
        };
        if let Some(after) = slipped {
            tell.note(&format!(
                "After `{text}` the win can no longer be forced {}.",
                self.horizon()
            ))?;
            if !after.line.is_empty() {
                let line: Vec<String> = after
                    .line
                    .iter()
                    .map(|(who, c)| format!("{who}: {c}"))
                    .collect();
                tell.note(&format!(
                    "The solver's answer, its best defence from here: {}",
                    line.join(" · ")
                ))?;
            }
            self.ending = Some(Ending::Failed(format!("`{text}` let the win slip")));
        }
        Ok(())
    }

    /// How far a win must come now, as a message says it: "within the 3
    /// own decisions left", "within the round".
    fn horizon(&self) -> String {
        match self.left() {
            None => "within the round".to_string(),
            Some(n) => {
                let own = if self.counts == DepthCounts::Own {
                    "own "
                } else {
                    ""
                };
                let decisions = if n == 1 { "decision" } else { "decisions" };
                format!("within the {n} {own}{decisions} left")
            }
        }
    }

    /// After the player's move: the solver's best defence when the puzzle
    /// claims a win and the win can no longer be forced (the move was
    /// wrong), else `None`. A search that runs out is counted
    /// (`unsettled`): the move is then let pass unjudged.
    fn slipped(&mut self, r: &Rules, watch: &dyn Fn(u64) -> bool) -> Option<SolveResult> {
        if !self.wins || self.over(r).is_some() {
            return None;
        }
        let after = self.solve_here(r, watch);
        if after.verdict == Verdict::Unknown {
            self.unsettled += 1;
        }
        (after.verdict == Verdict::Cannot).then_some(after)
    }

    /// The solver's answer for the opponent: its best defence among
    /// `options`, or the first option when it found none; `true` when that
    /// is because the solver ran out of positions.
    fn defence(
        &self,
        r: &Rules,
        options: &[Choice],
        watch: &dyn Fn(u64) -> bool,
    ) -> (Choice, bool) {
        let result = self.solve_here(r, watch);
        match result.best.filter(|c| options.contains(c)) {
            Some(c) => (c, false),
            None => (options[0], result.verdict == Verdict::Unknown),
        }
    }

    /// The solver's move from here, as a hint (counted).
    pub fn hint(&mut self, r: &Rules, watch: &dyn Fn(u64) -> bool) -> String {
        if self.hinted_at != Some(self.plies) {
            self.hints += 1;
            self.hinted_at = Some(self.plies);
        }
        let result = self.solve_here(r, watch);
        let name = |c| outcome_name(r, &self.s, c);
        match (result.verdict, result.best) {
            (Verdict::Wins, Some(c)) => format!("Hint: {}", name(c)),
            (Verdict::Unknown, _) => format!(
                "Hint: the solver ran out of {} before finding a move.",
                self.bounds.named
            ),
            _ => format!(
                "Hint: no move forces the win from here; the solver would play {}.",
                result.best.map(name).unwrap_or_else(|| "anything".into())
            ),
        }
    }

    /// What `ending` says of the attempt, in a sentence.
    pub fn verdict(&self, ending: &Ending) -> String {
        match ending {
            Ending::Solved if self.unsettled > 0 => format!(
                "Won, but not proven solved: the solver ran out of {} {} (raise the limit and try again), \
                 so a move of yours may have let the win slip and its defence may not have been its best.",
                self.bounds.named,
                match self.unsettled {
                    1 => "once".to_string(),
                    n => format!("{n} times"),
                },
            ),
            Ending::Solved => "Solved.".to_string(),
            Ending::Failed(why) if !self.wins => format!(
                "Not solved: {why}. As the puzzle claims, {} cannot force a win here.",
                the(self.side)
            ),
            Ending::Failed(why) => format!("Not solved: {why}."),
            Ending::Quit => "Stopped before the end.".to_string(),
        }
    }
}
