//! Information-set Monte Carlo tree search (single observer, Cowling et al.
//! 2012). Each iteration samples a full state consistent with the player's
//! view (`View::determinize`: the opponent's hand and deck, the face-down
//! evidence the Editor cannot see, the bag), walks the tree by UCB among the
//! options legal in that sample (counting each option's availability), adds
//! one node, plays the game out at random and credits the result to every
//! decision on the path, from the point of view of the player who took it.
//! Seeded and reproducible with an iteration budget.

use super::Agent;
use crate::game::engine::{Actor, Choice};
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use crate::players::clock::{Clock, Stopwatch, WallClock};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt;
use std::sync::Arc;

/// How long the search may think about one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations (reproducible).
    Iterations(u32),
    /// This many milliseconds of wall-clock time (not reproducible).
    Millis(u32),
}

impl Budget {
    pub fn parse(s: &str) -> Result<Budget, String> {
        let s = s.trim();
        let bad =
            || format!("`{s}`: expected a number of iterations (`1000`) or milliseconds (`250ms`)");
        if let Some(ms) = s.strip_suffix("ms") {
            let n: u32 = ms.trim().parse().map_err(|_| bad())?;
            if n == 0 {
                return Err(bad());
            }
            return Ok(Budget::Millis(n));
        }
        let n: u32 = s.parse().map_err(|_| bad())?;
        if n == 0 {
            return Err(bad());
        }
        Ok(Budget::Iterations(n))
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Millis(n) => write!(f, "{n}ms"),
        }
    }
}

/// No node (the end of a list of children).
const NONE: u32 = u32::MAX;

struct Node {
    /// The choice leading here, and who took it.
    choice: Choice,
    mover: Side,
    visits: u32,
    /// Iterations in which this choice was legal at its parent.
    avail: u32,
    /// Games won by `mover` through this node.
    wins: f32,
    /// The children, in the order they were added, as a list threaded
    /// through the nodes (no vector per node): the first and the last
    /// child, and the next sibling.
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
}

impl Node {
    fn new(choice: Choice, mover: Side, avail: u32) -> Node {
        Node {
            choice,
            mover,
            visits: 0,
            avail,
            wins: 0.0,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
        }
    }
}

pub struct IsmctsAgent {
    budget: Budget,
    rng: Pcg64Mcg,
    /// UCB exploration constant.
    pub exploration: f64,
    /// The tree (kept between decisions for its capacity).
    nodes: Vec<Node>,
    /// Buffers of an iteration, kept for their capacity: the options of
    /// the sampled state, the path from the root.
    buf: Vec<Choice>,
    path: Vec<u32>,
    /// Iterations run by the last decision (for benchmarks).
    pub last_iterations: u32,
    script_error: Option<crate::game::engine::ScriptError>,
    /// Where a time budget's time comes from (unused with an iteration budget).
    clock: Arc<dyn Clock>,
}

/// Decisions in one playout before it is judged instead of finished.
const PLAYOUT_LIMIT: usize = 4000;

impl IsmctsAgent {
    /// An agent whose time budget, if any, runs on the wall clock.
    pub fn new(budget: Budget, seed: u64) -> IsmctsAgent {
        IsmctsAgent::with_clock(budget, seed, WallClock::shared())
    }

    /// An agent whose time budget runs on `clock`.
    pub fn with_clock(budget: Budget, seed: u64, clock: Arc<dyn Clock>) -> IsmctsAgent {
        IsmctsAgent {
            budget,
            rng: Pcg64Mcg::seed_from_u64(seed),
            exploration: 0.7,
            nodes: Vec::new(),
            buf: Vec::new(),
            path: Vec::new(),
            last_iterations: 0,
            script_error: None,
            clock,
        }
    }

    fn pick(&mut self, n: usize) -> usize {
        (((self.rng.next_u64() as u128) * (n as u128)) >> 64) as usize
    }

    /// Plays `s` to its end at random from the decision `next` (whose
    /// options are in `buf`); the Editor's share of the result.
    fn playout(
        &mut self,
        r: &Rules,
        s: &mut State,
        next: Option<Actor>,
        buf: &mut Vec<Choice>,
    ) -> f32 {
        let mut live = next.is_some();
        for _ in 0..PLAYOUT_LIMIT {
            if !live {
                break;
            }
            let c = buf[self.pick(buf.len())];
            match s.apply_next(r, c, buf) {
                Ok(next) => live = next.is_some(),
                Err(e) => {
                    super::note_script_error(&mut self.script_error, e);
                    break;
                }
            }
        }
        match s.outcome() {
            Some(o) if o.winner == Side::Editor => 1.0,
            Some(_) => 0.0,
            None => super::eval::editor_win_chance(r, s) as f32,
        }
    }

    /// Whether `node` has a child for `choice`.
    fn has_child(&self, node: usize, choice: Choice) -> bool {
        let mut ch = self.nodes[node].first_child;
        while ch != NONE {
            let child = &self.nodes[ch as usize];
            if child.choice == choice {
                return true;
            }
            ch = child.next_sibling;
        }
        false
    }

    fn iterate(&mut self, r: &Rules, view: &View, buf: &mut Vec<Choice>, path: &mut Vec<u32>) {
        let mut s = view.determinize(self.rng.next_u64());
        let mut node = 0usize;
        path.clear();
        path.push(0);
        // Each step's options come with the state it leads to (`apply_next`).
        let mut next = s.legal(r, buf);
        while let Some(Actor::Player(actor)) = next {
            // Selection among the children legal in this sample.
            let mut best: Option<(f64, u32)> = None;
            let mut tried = 0;
            let mut ch = self.nodes[node].first_child;
            while ch != NONE {
                let child = &mut self.nodes[ch as usize];
                let id = ch;
                ch = child.next_sibling;
                if !buf.contains(&child.choice) {
                    continue;
                }
                tried += 1;
                child.avail += 1;
                let mean = child.wins as f64 / child.visits.max(1) as f64;
                let ucb = mean
                    + self.exploration
                        * ((child.avail as f64).ln() / child.visits.max(1) as f64).sqrt();
                if best.is_none_or(|(b, _)| ucb > b) {
                    best = Some((ucb, id));
                }
            }
            if tried < buf.len() {
                // Expansion: one untried option, at random (the k-th
                // untried one in the options' order).
                let untried = buf.iter().filter(|o| !self.has_child(node, **o)).count();
                let mut k = self.pick(untried);
                let mut c = buf[0];
                for &o in buf.iter() {
                    if !self.has_child(node, o) {
                        if k == 0 {
                            c = o;
                            break;
                        }
                        k -= 1;
                    }
                }
                let id = self.nodes.len() as u32;
                self.nodes.push(Node::new(c, actor, 1));
                let parent = &mut self.nodes[node];
                let last = parent.last_child;
                parent.last_child = id;
                if last == NONE {
                    parent.first_child = id;
                } else {
                    self.nodes[last as usize].next_sibling = id;
                }
                path.push(id);
                next = match s.apply_next(r, c, buf) {
                    Ok(n) => n,
                    Err(e) => {
                        super::note_script_error(&mut self.script_error, e);
                        return;
                    }
                };
                break;
            }
            let Some((_, ch)) = best else { break };
            let c = self.nodes[ch as usize].choice;
            next = match s.apply_next(r, c, buf) {
                Ok(n) => n,
                Err(e) => {
                    super::note_script_error(&mut self.script_error, e);
                    return;
                }
            };
            node = ch as usize;
            path.push(ch);
        }
        let editor = self.playout(r, &mut s, next, buf);
        for &n in path.iter() {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.wins += if node.mover == Side::Editor {
                editor
            } else {
                1.0 - editor
            };
        }
    }
}

impl Agent for IsmctsAgent {
    fn name(&self) -> String {
        format!("ismcts:{}", self.budget)
    }

    fn take_script_error(&mut self) -> Option<crate::game::engine::ScriptError> {
        self.script_error.take()
    }

    fn decide(&mut self, view: &View, options: &[Choice]) -> Choice {
        if options.len() == 1 {
            return options[0];
        }
        let r = view.rules();
        self.nodes.clear();
        if let Budget::Iterations(n) = self.budget {
            // At most one node per iteration: the tree never grows its
            // vector during the search.
            self.nodes.reserve(n as usize + 1);
        }
        self.nodes
            .push(Node::new(options[0], view.side().other(), 0));
        let mut buf = std::mem::take(&mut self.buf);
        let mut path = std::mem::take(&mut self.path);
        buf.reserve(64);
        path.reserve(64);
        let clock = self.clock.clone();
        let watch = Stopwatch::start(clock.as_ref());
        let mut n = 0;
        loop {
            match self.budget {
                Budget::Iterations(max) if n >= max => break,
                Budget::Millis(ms) if n % 8 == 0 && watch.elapsed().as_millis() >= ms as u128 => {
                    break
                }
                _ => {}
            }
            self.iterate(r, view, &mut buf, &mut path);
            n += 1;
        }
        self.last_iterations = n;
        self.buf = buf;
        self.path = path;
        let nodes = &self.nodes;
        let mut ch = nodes[0].first_child;
        std::iter::from_fn(|| {
            let node = nodes.get(ch as usize)?;
            ch = node.next_sibling;
            Some(node)
        })
        .filter(|c| options.contains(&c.choice))
        .max_by_key(|c| c.visits)
        .map(|c| c.choice)
        .unwrap_or(options[0])
    }
}
