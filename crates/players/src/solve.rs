//! The puzzle solver: can the side to move force a win — against every
//! defence and every outcome of chance — within the round (or within a
//! number of decisions)? An AND-OR search: at the solver side's decisions
//! one winning option suffices; at the opponent's decisions and at chance
//! (a draw from the bag, a random discard, the card that comes out on top
//! of a reshuffled deck) every option must still lose for the opponent: the
//! search never trusts the position's generator. (The cards below a
//! reshuffled deck's top are still ordered by the generator; with the
//! shipped cards at most one card is drawn from a deck within a round.) A transposition table remembers settled positions, and
//! options are ordered so that wins are found (and refutations met) early.

use crate::clock::{Stopwatch, WallClock};
use crate::game::engine::notation::outcome_name;
use crate::game::engine::{Actor, Choice};
pub use crate::game::model::DepthCounts;
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::*;
use std::collections::HashMap;
use std::time::Duration;

/// What the solver is asked: who must force a win, within how many
/// decisions, and how far it may search.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Who must force the win.
    pub side: Side,
    /// At most this many decisions; `None`: until the round ends.
    pub max_plies: Option<u32>,
    /// Which decisions `max_plies` counts: every one, or only the side's
    /// own (then the opponent's and chance's decisions between are free).
    pub counts: DepthCounts,
    /// Give up after this many positions (the answer is then unknown).
    pub node_limit: u64,
}

/// The solver's answer to its question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side can force a win; `line` is a winning line.
    Wins,
    /// The side cannot; `line` shows a best defence.
    Cannot,
    /// The node limit was reached first.
    Unknown,
}

/// The solver's answer, with its main line and what the search cost.
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// Whether the side wins, cannot, or the answer is unknown.
    pub verdict: Verdict,
    /// The main line, in choice notation, with who chose each move.
    pub line: Vec<(String, String)>,
    /// The first move of the main line: for the side, a winning move (if
    /// it wins); for the opponent, the best defence; for chance, the worst
    /// outcome for the side.
    pub best: Option<Choice>,
    /// Positions searched.
    pub nodes: u64,
    /// The search's wall time.
    pub elapsed: Duration,
    /// A card script that failed in a position the search reached (a
    /// position the game can reach): the script is to blame, and the
    /// verdict does not stand.
    pub script_error: Option<crate::game::engine::ScriptError>,
}

/// What the table knows about a position: forced win within `plies`
/// decisions (counted as the search counts them), or no forced win
/// within `plies`.
#[derive(Clone, Copy)]
struct Known {
    wins: bool,
    plies: u32,
    best: Option<Choice>,
}

struct Search<'r> {
    r: &'r Rules,
    /// Told the node count every `WATCH_EVERY` nodes; `false` stops the search.
    watch: &'r dyn Fn(u64) -> bool,
    side: Side,
    counts: DepthCounts,
    round: u16,
    nodes: u64,
    limit: u64,
    aborted: bool,
    table: HashMap<u64, Known>,
    script_error: Option<crate::game::engine::ScriptError>,
}

/// Plies stand for "until the round ends" when no limit is set.
const ROUND_HORIZON: u32 = 400;

impl Search<'_> {
    fn terminal(&self, s: &State) -> Option<bool> {
        if let Some(o) = s.outcome() {
            return Some(o.winner == self.side);
        }
        if s.round() != self.round || s.phase() == Phase::Initial {
            // The round is over without a win for the side.
            return Some(false);
        }
        None
    }

    /// A quick guess of how good a position is for the solver side, to try
    /// the most promising options first.
    fn score(&self, s: &State) -> i32 {
        if let Some(w) = self.terminal(s) {
            return if w { 1_000_000 } else { -1_000_000 };
        }
        let sign = self.side.sign() as i32;
        let mut v = 0;
        if let Some(p) = s.momentum_token() {
            v += 30 * p as i32 * sign;
        }
        let mc = s.momentum_cards();
        v += 300 * (mc[self.side] as i32 - mc[self.side.other()] as i32);
        let connected = crate::game::engine::connected_informants(self.r, s) as i32;
        v += if self.side == Side::Editor {
            200 * connected
        } else {
            -200 * connected
        };
        for t in s.track() {
            if let Some((p, _)) = s.on_track(*t) {
                v += 10 * p as i32 * sign;
            }
        }
        v
    }

    /// Whether the side can force a win within `plies` decisions (every
    /// decision, or only the side's own: `self.counts`).
    fn wins(&mut self, s: &State, plies: u32) -> (bool, Option<Choice>) {
        if let Some(w) = self.terminal(s) {
            return (w, None);
        }
        if plies == 0 && self.counts == DepthCounts::Every {
            return (false, None);
        }
        let key = s.position_key();
        let mut hint = None;
        if let Some(k) = self.table.get(&key) {
            if k.wins && k.plies <= plies {
                return (true, k.best);
            }
            if !k.wins && k.plies >= plies {
                return (false, k.best);
            }
            hint = k.best;
        }
        // The limit is checked before the position is counted: a search
        // stopped by `node_limit` N reports N positions, not N + 1.
        if self.nodes == self.limit {
            self.aborted = true;
            return (false, None);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(WATCH_EVERY) && !(self.watch)(self.nodes) {
            self.aborted = true;
            return (false, None);
        }
        let mut options = Vec::new();
        let Some(actor) = s.legal(self.r, &mut options) else {
            return (false, None);
        };
        let mine = actor == Actor::Player(self.side);
        if mine && plies == 0 {
            // Counting own decisions: none left to win with (the
            // opponent's and chance's before this one were free).
            return (false, None);
        }
        let left = if mine || self.counts == DepthCounts::Every {
            plies - 1
        } else {
            plies
        };
        // Children, ordered: the side tries its best-looking options first;
        // the opponent and chance try the side's worst first (refutations).
        let mut script_failed = None;
        let mut children: Vec<(i32, Choice, State)> = options
            .iter()
            .map(|c| {
                let mut next = s.clone();
                if let Err(e) = next.apply_unchecked(self.r, *c) {
                    if let crate::game::engine::PlayError::Script(se) = e {
                        script_failed.get_or_insert(se);
                    }
                    // A failing script: treat as a dead end for the mover
                    // (the search goes on; the failure is reported).
                    return (if mine { i32::MIN } else { i32::MAX }, *c, s.clone());
                }
                let mut sc = self.score(&next);
                if Some(*c) == hint {
                    sc = if mine { i32::MAX } else { i32::MIN };
                }
                (sc, *c, next)
            })
            .collect();
        if let Some(se) = script_failed {
            self.script_error.get_or_insert(*se);
        }
        if mine {
            children.sort_by_key(|(sc, _, _)| -(*sc as i64));
        } else {
            children.sort_by_key(|(sc, _, _)| *sc as i64);
        }
        let mut result = (!mine, None);
        for (_, c, next) in &children {
            let (w, _) = self.wins(next, left);
            if self.aborted {
                return (false, None);
            }
            if mine && w {
                result = (true, Some(*c));
                break;
            }
            if !mine && !w {
                result = (false, Some(*c));
                break;
            }
        }
        if result.1.is_none() {
            // No win for the side (or no refutation for the opponent): keep
            // the best-looking option as the line to show.
            result.1 = children.first().map(|(_, c, _)| *c);
        }
        self.table.insert(
            key,
            Known {
                wins: result.0,
                plies,
                best: result.1,
            },
        );
        result
    }
}

/// Solves the position `s` for `cfg.side`. The position is searched with
/// explicit chance whatever its own setting.
/// How often (in positions) `solve_watched` reports progress.
pub const WATCH_EVERY: u64 = 1 << 14;

/// Whether `cfg.side` can force a win from `s`, within `cfg`'s depth:
/// [`solve_watched`] with no watcher.
pub fn solve(r: &Rules, s: &State, cfg: &SolveConfig) -> SolveResult {
    solve_watched(r, s, cfg, &|_| true)
}

/// `solve`, telling `watch` the number of positions searched every
/// `WATCH_EVERY` positions (a progress bar); when it answers `false` the
/// search stops as at the node limit, with the verdict `Unknown`.
pub fn solve_watched(
    r: &Rules,
    s: &State,
    cfg: &SolveConfig,
    watch: &dyn Fn(u64) -> bool,
) -> SolveResult {
    let clock = WallClock::new();
    let start = Stopwatch::start(&clock);
    let mut root = s.clone();
    root.set_explicit_chance(true);
    let mut search = Search {
        r,
        side: cfg.side,
        counts: cfg.counts,
        round: root.round(),
        watch,
        nodes: 0,
        limit: cfg.node_limit,
        aborted: false,
        table: HashMap::new(),
        script_error: None,
    };
    let horizon = cfg.max_plies.unwrap_or(ROUND_HORIZON);
    // Iterative deepening finds the shortest forced win first and fills the
    // table with good move orders for the deeper searches.
    let mut wins = false;
    let mut depth = 1;
    while depth <= horizon {
        let (w, _) = search.wins(&root, depth);
        if search.aborted {
            break;
        }
        if w {
            wins = true;
            break;
        }
        if depth == horizon {
            break;
        }
        depth = (depth * 2).min(horizon);
        if cfg.max_plies.is_none() && depth > 64 {
            depth = horizon;
        }
    }
    let verdict = if search.aborted {
        Verdict::Unknown
    } else if wins {
        Verdict::Wins
    } else {
        Verdict::Cannot
    };
    // The main line: follow the table's best moves.
    let best = if search.aborted {
        None
    } else {
        search.table.get(&root.position_key()).and_then(|k| k.best)
    };
    let mut line = Vec::new();
    let mut cur = root.clone();
    let mut plies = if wins { depth } else { horizon };
    let every = cfg.counts == DepthCounts::Every;
    while !search.aborted && (plies > 0 || !every) {
        if search.terminal(&cur).is_some() {
            break;
        }
        let Some(k) = search.table.get(&cur.position_key()).copied() else {
            break;
        };
        let Some(c) = k.best else { break };
        let actor = cur.legal(r, &mut Vec::new());
        let who = match actor {
            Some(Actor::Player(p)) => p.name().to_string(),
            Some(Actor::Chance) => "chance".to_string(),
            None => break,
        };
        let mine = actor == Some(Actor::Player(cfg.side));
        if mine && plies == 0 {
            break;
        }
        line.push((who, outcome_name(r, &cur, c)));
        if cur.apply_unchecked(r, c).is_err() {
            break;
        }
        if every || mine {
            plies -= 1;
        }
        if line.len() > 200 {
            break;
        }
    }
    SolveResult {
        verdict,
        line,
        best,
        nodes: search.nodes,
        elapsed: start.elapsed(),
        script_error: search.script_error,
    }
}
