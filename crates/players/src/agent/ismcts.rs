//! Information-set Monte Carlo tree search (single observer, Cowling et al.
//! 2012). Each iteration samples a full state consistent with the player's
//! view (`View::determinize`: the opponent's hand and deck, the face-down
//! evidence the Editor cannot see, the bag), walks the tree by UCB among the
//! options legal in that sample (counting each option's availability), adds
//! one node, plays on at random for a few decisions and judges the position
//! it reached (`eval::editor_win_chance`; a finished game counts as won or
//! lost), and credits the result to every decision on the path, from the
//! point of view of the player who took it. Seeded and reproducible with an
//! iteration budget.
//!
//! Judged playouts are the default: at 10 decisions they won 83.5 % of 400
//! games against playouts to the end at the same iterations, at a fraction
//! of the cost (BENCHMARKS.md); `playout=full` plays every playout to the
//! end, as the search did before.
//!
//! Options (see [`Search`]): `reuse` keeps, from one decision to the
//! next, the subtree under the path the game took (the agent's option, then
//! the choices it was told of through [`Agent::observe`]); `threads=N` grows
//! N independent trees on N threads with seeds derived from the agent's, and
//! chooses by their root visits added up (root parallelism): reproducible
//! for a given seed and N; `settle` ends a decision's search once the
//! choice can no longer change (the same choice, fewer iterations).

use super::Agent;
use crate::clock::{Clock, Stopwatch, WallClock};
use crate::game::engine::{Actor, Choice, Quiet};
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt;
use std::sync::Arc;

/// The most nodes a tree reserves up front: a node per iteration up to
/// here (so that a decision of up to this many iterations allocates
/// nothing, tests/zero_alloc.rs); past it the tree grows as it needs.
/// Never one reservation per requested iteration: `ismcts:999999999` would
/// ask for 32 GB before thinking at all (issue 41).
pub const MAX_RESERVED_NODES: usize = 1 << 17;

/// How long the search may think about one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations (reproducible).
    Iterations(u32),
    /// This many milliseconds of wall-clock time (not reproducible).
    Millis(u32),
}

impl Budget {
    /// Reads a budget: `N` iterations or `Nms` milliseconds a decision.
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

/// How the search is set up: its budget, whether it keeps its tree from one
/// decision to the next, and how many trees it grows at once. Written after
/// the budget in an agent's name: `ismcts:1000:reuse:threads=2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// The budget of one decision, shared among the trees.
    pub budget: Budget,
    /// Keep the part of the tree that the game went down (the chosen option,
    /// then every choice made since, as the agent was told them) and count
    /// its iterations towards the next decision's budget.
    pub reuse: bool,
    /// Independent trees grown on this many threads (root parallelism),
    /// their root visits added up; 1 is the plain search.
    pub threads: u8,
    /// Stop a decision's search as soon as the most visited option can no
    /// longer be overtaken in the iterations left: the same choice as the
    /// whole budget would make, sooner. One tree and an iteration budget
    /// only (with several trees the sum decides; with a time budget the
    /// iterations left are unknown).
    pub settle: bool,
    /// How each playout ends: judged after a few decisions (the default)
    /// or played to the end of the game.
    pub playout: Playout,
}

/// How a playout ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// Played at random to the end of the game, or to `PLAYOUT_LIMIT`
    /// decisions (the search before playouts were judged: `playout=full`).
    Full,
    /// Played at random for at most this many decisions, then the position
    /// is judged by `eval::editor_win_chance` (`playout=N`).
    Judged(u16),
}

/// Playouts judged after 10 decisions: much stronger than playouts to the
/// end at the same iterations, and several times cheaper (BENCHMARKS.md).
pub const DEFAULT_PLAYOUT: Playout = Playout::Judged(10);

impl Playout {
    /// Decisions a playout may take before it is judged.
    fn limit(self) -> usize {
        match self {
            Playout::Full => PLAYOUT_LIMIT,
            Playout::Judged(n) => n as usize,
        }
    }
}

impl fmt::Display for Playout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Playout::Full => f.write_str("full"),
            Playout::Judged(n) => write!(f, "{n}"),
        }
    }
}

/// The most trees `threads=N` may ask for.
pub const MAX_THREADS: u8 = 64;

impl Search {
    /// `BUDGET[:reuse][:settle][:playout=N|full][:threads=N]`.
    pub fn parse(s: &str) -> Result<Search, String> {
        let mut parts = s.split(':');
        let budget = Budget::parse(parts.next().unwrap_or(""))?;
        let mut search = Search::from(budget);
        for opt in parts {
            let opt = opt.trim();
            if opt.eq_ignore_ascii_case("reuse") {
                search.reuse = true;
            } else if opt.eq_ignore_ascii_case("settle") {
                search.settle = true;
            } else if let Some(n) = opt.strip_prefix("playout=") {
                let n = n.trim();
                search.playout = if n.eq_ignore_ascii_case("full") {
                    Playout::Full
                } else {
                    n.parse()
                        .ok()
                        .filter(|n| (*n as usize) <= PLAYOUT_LIMIT)
                        .map(Playout::Judged)
                        .ok_or_else(|| {
                            format!("`{opt}`: expected playout=full or playout=N with N from 0 to {PLAYOUT_LIMIT} (decisions before the position is judged)")
                        })?
                };
            } else if let Some(n) = opt.strip_prefix("threads=") {
                search.threads = n
                    .trim()
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_THREADS).contains(n))
                    .ok_or_else(|| {
                        format!("`{opt}`: expected threads=N with N from 1 to {MAX_THREADS}")
                    })?;
            } else {
                return Err(format!(
                    "`{opt}`: unknown search option (expected `reuse`, `settle`, `playout=N`, `playout=full` or `threads=N`)"
                ));
            }
        }
        if search.settle && search.threads > 1 {
            return Err("`settle` stops one tree early; with `threads=N` the trees' sum decides (drop one of the two)".into());
        }
        if search.settle && matches!(search.budget, Budget::Millis(_)) {
            return Err("`settle` needs an iteration budget (`1000:settle`): with a time budget the iterations left are unknown".into());
        }
        Ok(search)
    }
}

impl From<Budget> for Search {
    fn from(budget: Budget) -> Search {
        Search {
            budget,
            reuse: false,
            threads: 1,
            settle: false,
            playout: DEFAULT_PLAYOUT,
        }
    }
}

impl fmt::Display for Search {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.budget)?;
        if self.reuse {
            f.write_str(":reuse")?;
        }
        if self.settle {
            f.write_str(":settle")?;
        }
        if self.playout != DEFAULT_PLAYOUT {
            write!(f, ":playout={}", self.playout)?;
        }
        if self.threads != 1 {
            write!(f, ":threads={}", self.threads)?;
        }
        Ok(())
    }
}

/// No node (the end of a list of children).
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Node {
    /// The choice leading here, and who took it.
    choice: Choice,
    mover: Side,
    /// `choice.key()`, made once: the selection compares it with each
    /// option's at every iteration (4 bytes more a node; making it at each
    /// comparison cost 2 % of an iteration's instructions, issue 38).
    key: u32,
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
            key: choice.key(),
            visits: 0,
            avail,
            wins: 0.0,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
        }
    }
}

/// Room kept in a search's buffers (options of a decision, the path from
/// the root, the root's visits by option): more than a decision of the
/// shipped game has (the bench's decisions have 21 options at most); a
/// longer list grows as before.
const BUFFER: usize = 64;

/// Decisions in a full playout before it is judged instead of finished
/// (only a game that cannot end reaches it).
pub const PLAYOUT_LIMIT: usize = 4000;

/// One search tree with its own generator: the agent grows one per thread.
struct Tree {
    rng: Pcg64Mcg,
    /// The tree; node 0 is the root (kept between decisions for its
    /// capacity, and with `reuse` for its contents).
    nodes: Vec<Node>,
    /// Where a subtree is copied when it becomes the new tree.
    spare: Vec<Node>,
    /// Buffers of an iteration, kept for their capacity: the options of
    /// the sampled state, the path from the root.
    buf: Vec<Choice>,
    path: Vec<u32>,
    /// The options of a step of the selection as `Choice::key`s.
    keys: Vec<u32>,
    script_error: Option<crate::game::engine::ScriptError>,
    /// With `reuse`: the node the game has reached, following the choices
    /// the agent was told since its last search (`None`: off the tree).
    at: Option<u32>,
}

/// What one tree is to do in a decision: towards which goal, keeping what
/// it reached (`reuse`), stopping once settled, where its playouts are
/// judged, with which UCB constant.
#[derive(Clone, Copy)]
struct Task {
    goal: Goal,
    playout: Playout,
    reuse: bool,
    settle: bool,
    exploration: f64,
}

/// A number below `n` from `rng`: a tree's every random pick.
#[inline]
fn pick_below(rng: &mut Pcg64Mcg, n: usize) -> usize {
    (((rng.next_u64() as u128) * (n as u128)) >> 64) as usize
}

/// How much one tree is to search in a decision.
#[derive(Clone, Copy)]
enum Goal {
    /// Until its root has this many visits (those kept from before count).
    Visits(u32),
    /// For this many milliseconds.
    Millis(u32),
}

impl Tree {
    fn new(seed: u64) -> Tree {
        Tree {
            rng: Pcg64Mcg::seed_from_u64(seed),
            nodes: Vec::new(),
            spare: Vec::new(),
            buf: Vec::new(),
            path: Vec::new(),
            keys: Vec::new(),
            script_error: None,
            at: None,
        }
    }

    fn pick(&mut self, n: usize) -> usize {
        pick_below(&mut self.rng, n)
    }

    /// Makes the subtree under `at` the whole tree (children in the same
    /// order), copying it into the spare vector: no allocation once both
    /// have grown.
    fn reroot(&mut self, at: u32) {
        let old = std::mem::take(&mut self.nodes);
        let mut new = std::mem::take(&mut self.spare);
        new.clear();
        let mut root = old[at as usize];
        root.next_sibling = NONE;
        new.push(root);
        // Breadth first: a copied node still holds its old first child
        // until its turn comes, when its children are copied after it.
        let mut i = 0;
        while i < new.len() {
            let mut ch = new[i].first_child;
            new[i].first_child = NONE;
            new[i].last_child = NONE;
            while ch != NONE {
                let mut node = old[ch as usize];
                ch = node.next_sibling;
                node.next_sibling = NONE;
                let id = new.len() as u32;
                new.push(node);
                match new[i].last_child {
                    NONE => new[i].first_child = id,
                    last => new[last as usize].next_sibling = id,
                }
                new[i].last_child = id;
            }
            i += 1;
        }
        self.nodes = new;
        self.spare = old;
    }

    /// Plays `s` on at random from the decision `next` (whose options are
    /// in `buf`) for at most `limit` decisions; the Editor's share of the
    /// result: 1 or 0 if the game ended, else the judged chance
    /// (`eval::editor_win_chance`).
    fn playout(
        &mut self,
        r: &Rules,
        s: &mut State,
        next: Option<Actor>,
        buf: &mut Vec<Choice>,
        limit: usize,
    ) -> f32 {
        // The playout picks by place (`State::play_by_place`): the same
        // choices as taking `buf[pick(buf.len())]` at each decision, with
        // no list of options built for most of them (issue 38).
        if next.is_some() {
            let rng = &mut self.rng;
            let mut pick = |_: Actor, n: usize| pick_below(rng, n);
            if let Err(e) = s.play_by_place(r, limit as u64, &mut pick, buf, &mut Quiet) {
                super::note_script_error(&mut self.script_error, e);
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

    /// The child of `node` reached by `choice`.
    fn child(&self, node: u32, choice: Choice) -> Option<u32> {
        let mut ch = self.nodes[node as usize].first_child;
        while ch != NONE {
            let child = &self.nodes[ch as usize];
            if child.choice == choice {
                return Some(ch);
            }
            ch = child.next_sibling;
        }
        None
    }

    fn iterate(
        &mut self,
        r: &Rules,
        view: &View,
        exploration: f64,
        playout: Playout,
        buf: &mut Vec<Choice>,
        path: &mut Vec<u32>,
    ) {
        let mut s = view.determinize(self.rng.next_u64());
        let mut node = 0usize;
        path.clear();
        path.push(0);
        let ln_table = ln_table();
        // Each step's options come with the state it leads to (`apply_next`).
        let mut next = s.legal(r, buf);
        while let Some(Actor::Player(actor)) = next {
            // Selection among the children legal in this sample; which
            // options have a child is marked by the option's place in `buf`
            // (a bit each, for the expansion below).
            let mut best: Option<(f64, u32)> = None;
            let mut tried = 0;
            let mut has_child = [0u64; 4];
            // The options as numbers (`Choice::key`), made once a decision:
            // each child is then looked for among numbers, where the
            // derived `==` branched on the variant and then on each field
            // at every comparison (about 5 % of an iteration's
            // instructions, issue 38).
            let keys = &mut self.keys;
            keys.clear();
            keys.extend(buf.iter().map(|o| o.key()));
            let mut ch = self.nodes[node].first_child;
            while ch != NONE {
                let child = &mut self.nodes[ch as usize];
                let id = ch;
                ch = child.next_sibling;
                let Some(j) = keys.iter().position(|k| *k == child.key) else {
                    continue;
                };
                if let Some(word) = has_child.get_mut(j / 64) {
                    *word |= 1 << (j % 64);
                }
                tried += 1;
                child.avail += 1;
                let mean = child.wins as f64 / child.visits.max(1) as f64;
                let ucb = mean
                    + exploration
                        * (ln_in(ln_table, child.avail) / child.visits.max(1) as f64).sqrt();
                if best.is_none_or(|(b, _)| ucb > b) {
                    best = Some((ucb, id));
                }
            }
            if tried < buf.len() {
                // Expansion: one untried option, at random (the k-th
                // untried one in the options' order). The children are
                // distinct options, so the untried ones are the rest.
                let mut k = self.pick(buf.len() - tried);
                let mut c = buf[0];
                for (j, &o) in buf.iter().enumerate() {
                    let child = match has_child.get(j / 64) {
                        Some(word) => word & (1 << (j % 64)) != 0,
                        None => self.has_child(node, o),
                    };
                    if !child {
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
        let editor = self.playout(r, &mut s, next, buf, playout.limit());
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

    /// Grows the tree for the decision of `view` (options `options`, more
    /// than one) as `task` says; the iterations it ran. With `reuse`, the
    /// subtree the game reached is kept and its visits count; with
    /// `settle`, it stops once the root's choice is out of reach.
    fn search(&mut self, view: &View, options: &[Choice], task: Task, clock: &dyn Clock) -> u32 {
        let Task {
            goal,
            playout,
            reuse,
            settle,
            exploration,
        } = task;
        let r = view.rules();
        match self.at.take() {
            Some(at) if reuse => self.reroot(at),
            _ => {
                self.nodes.clear();
                self.nodes
                    .push(Node::new(options[0], view.side().other(), 0));
            }
        }
        let kept = self.nodes[0].visits;
        if let Goal::Visits(n) = goal {
            // At most one node per iteration (`reserve` counts from the
            // nodes already there): the tree never grows its vector during
            // the search, nor, after the agent's first, at its start.
            self.nodes
                .reserve((n.saturating_sub(kept) as usize).min(MAX_RESERVED_NODES));
        }
        let mut buf = std::mem::take(&mut self.buf);
        let mut path = std::mem::take(&mut self.path);
        // Room for 64 more than a stale length would ask a new allocation
        // at every decision: all are refilled by each iteration anyway.
        buf.clear();
        path.clear();
        self.keys.clear();
        buf.reserve(BUFFER);
        path.reserve(BUFFER);
        self.keys.reserve(BUFFER);
        let watch = Stopwatch::start(clock);
        let mut n = 0;
        loop {
            match goal {
                Goal::Visits(max) if kept.saturating_add(n) >= max => break,
                Goal::Millis(ms) if n % 8 == 0 && watch.elapsed().as_millis() >= ms as u128 => {
                    break
                }
                _ => {}
            }
            self.iterate(r, view, exploration, playout, &mut buf, &mut path);
            n += 1;
            if let (true, Goal::Visits(max)) = (settle, goal) {
                let left = max.saturating_sub(kept.saturating_add(n));
                // The leader has at most the root's visits: only then can
                // it be out of reach, so the children are looked at then.
                if left < self.nodes[0].visits && self.settled(options, left) {
                    break;
                }
            }
        }
        self.buf = buf;
        self.path = path;
        // The game is at the root until the agent hears otherwise.
        self.at = Some(0);
        n
    }

    /// Whether the option the root's visits choose is out of reach of every
    /// other option (an untried one has none) with `left` iterations to go:
    /// each iteration adds one visit to one child, and the choice is the
    /// most visited (see `decide`), so no later iteration can change it.
    fn settled(&self, options: &[Choice], left: u32) -> bool {
        let (mut best, mut second) = (0, 0);
        for c in self.root_children().filter(|c| options.contains(&c.choice)) {
            if c.visits > best {
                second = best;
                best = c.visits;
            } else if c.visits > second {
                second = c.visits;
            }
        }
        second + left < best
    }

    /// The root's children, in the order they were added.
    fn root_children(&self) -> impl Iterator<Item = &Node> {
        let nodes = &self.nodes;
        let mut ch = nodes.first().map_or(NONE, |root| root.first_child);
        std::iter::from_fn(move || {
            let node = nodes.get(ch as usize)?;
            ch = node.next_sibling;
            Some(node)
        })
    }
}

/// Natural logarithms of the counts a search meets most, computed once by
/// `f64::ln` itself (the same values, without its cost at every child of
/// every walk: about 3% of a search's time).
static LN: std::sync::OnceLock<Box<[f64]>> = std::sync::OnceLock::new();

/// The table of `LN`, made at the first call.
#[inline]
fn ln_table() -> &'static [f64] {
    LN.get_or_init(|| (0..4096u32).map(|i| (i as f64).ln()).collect())
}

/// `(n as f64).ln()`, read from `table` (`ln_table()`): a walk takes the
/// table once, where asking `LN` at each child checked each time that it
/// was made (about 1 % of an iteration's instructions, issue 38).
#[inline]
fn ln_in(table: &[f64], n: u32) -> f64 {
    match table.get(n as usize) {
        Some(v) => *v,
        None => (n as f64).ln(),
    }
}

/// A seed for tree `i` of an agent seeded `seed` (SplitMix64 of the pair);
/// tree 0 uses `seed` itself, so one thread is the plain search.
fn tree_seed(seed: u64, i: u64) -> u64 {
    if i == 0 {
        return seed;
    }
    let mut z = seed
        .wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `ismcts:…` player: information-set Monte Carlo tree search over
/// determinizations of what its side cannot see.
pub struct IsmctsAgent {
    search: Search,
    /// UCB exploration constant.
    pub exploration: f64,
    /// One tree per thread, each with its generator.
    trees: Vec<Tree>,
    /// Whether the agent was told a choice since its last search (a driver
    /// that never calls `observe` must not have a stale tree reused).
    heard: bool,
    /// Root visits by option, summed over the trees (kept for its capacity).
    visits: Vec<(Choice, u32)>,
    /// Iterations run by the last decision, all trees together (for
    /// benchmarks; with `reuse`, those kept from before are not counted).
    pub last_iterations: u32,
    /// Where a time budget's time comes from (unused with an iteration budget).
    clock: Arc<dyn Clock>,
}

impl IsmctsAgent {
    /// An agent whose time budget, if any, runs on the wall clock.
    pub fn new(budget: Budget, seed: u64) -> IsmctsAgent {
        IsmctsAgent::with_search(Search::from(budget), seed)
    }

    /// An agent set up by `search`, on the wall clock.
    pub fn with_search(search: Search, seed: u64) -> IsmctsAgent {
        IsmctsAgent::with_clock(search, seed, WallClock::shared())
    }

    /// An agent whose time budget runs on `clock`.
    pub fn with_clock(search: Search, seed: u64, clock: Arc<dyn Clock>) -> IsmctsAgent {
        // The logarithm table is made now, not inside the first decision
        // (a decision allocates nothing: tests/zero_alloc.rs).
        ln_table();
        let threads = search.threads.max(1) as u64;
        let k = threads as usize;
        IsmctsAgent {
            search,
            exploration: 0.7,
            trees: (0..threads)
                .map(|i| {
                    let mut t = Tree::new(tree_seed(seed, i));
                    // Sized here, so that no decision allocates (issue 16):
                    // the root and a node per iteration of an iteration
                    // budget (`search` asks for the same), the buffers.
                    if let Goal::Visits(n) = IsmctsAgent::goal(search.budget, i as usize, k) {
                        t.nodes.reserve((n as usize + 1).min(MAX_RESERVED_NODES));
                    }
                    t.buf.reserve(BUFFER);
                    t.path.reserve(BUFFER);
                    t.keys.reserve(BUFFER);
                    t
                })
                .collect(),
            heard: false,
            visits: Vec::with_capacity(BUFFER),
            last_iterations: 0,
            clock,
        }
    }

    /// What tree `i` of `k` is to do: an iteration budget is shared out
    /// (the first trees take the remainder), a time budget is everyone's.
    fn goal(budget: Budget, i: usize, k: usize) -> Goal {
        match budget {
            Budget::Iterations(n) => {
                let n = n as usize;
                Goal::Visits((n / k + usize::from(i < n % k)) as u32)
            }
            Budget::Millis(ms) => Goal::Millis(ms),
        }
    }
}

impl Agent for IsmctsAgent {
    fn name(&self) -> String {
        format!("ismcts:{}", self.search)
    }

    fn take_script_error(&mut self) -> Option<crate::game::engine::ScriptError> {
        self.trees.iter_mut().find_map(|t| t.script_error.take())
    }

    fn observe(&mut self, actor: Actor, choice: Choice) {
        self.heard = true;
        for t in &mut self.trees {
            t.at = match (t.at, actor) {
                (Some(at), Actor::Player(_)) => t.child(at, choice),
                // A chance outcome is no node of the tree.
                _ => None,
            };
        }
    }

    fn forget(&mut self) {
        self.heard = false;
        for t in &mut self.trees {
            t.at = None;
        }
    }

    fn decide(&mut self, view: &View, options: &[Choice]) -> Choice {
        if options.len() == 1 {
            return options[0];
        }
        let reuse = self.search.reuse && self.heard;
        self.heard = false;
        let k = self.trees.len();
        let (search, exploration) = (self.search, self.exploration);
        // Settling is for one tree (`Search::parse` refuses it with more).
        let task = |i| Task {
            playout: search.playout,
            goal: IsmctsAgent::goal(search.budget, i, k),
            reuse,
            settle: search.settle && k == 1,
            exploration,
        };
        let clock = self.clock.clone();
        let (first, rest) = self.trees.split_first_mut().expect("at least one tree");
        let mut n = 0;
        if rest.is_empty() {
            n = first.search(view, options, task(0), clock.as_ref());
        } else {
            // Root parallelism: the other trees on their own threads, the
            // first on this one; each tree is a function of its seed, so
            // the sum does not depend on how the threads were scheduled.
            let view = *view;
            std::thread::scope(|scope| {
                let clock = clock.as_ref();
                let handles: Vec<_> = rest
                    .iter_mut()
                    .enumerate()
                    .map(|(i, t)| {
                        let task = task(i + 1);
                        scope.spawn(move || t.search(&view, options, task, clock))
                    })
                    .collect();
                n = first.search(&view, options, task(0), clock);
                for h in handles {
                    n += h.join().expect("a search thread panicked");
                }
            });
        }
        self.last_iterations = n;
        // The root visits of all trees, summed by option, in the order the
        // options first appear (tree by tree); the most visited wins, the
        // last of equals as with one tree.
        let visits = &mut self.visits;
        visits.clear();
        for t in &self.trees {
            for c in t.root_children().filter(|c| options.contains(&c.choice)) {
                match visits.iter_mut().find(|(o, _)| *o == c.choice) {
                    Some((_, v)) => *v += c.visits,
                    None => visits.push((c.choice, c.visits)),
                }
            }
        }
        visits
            .iter()
            .max_by_key(|(_, v)| *v)
            .map(|(c, _)| *c)
            .unwrap_or(options[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_iteration_budget_reserves_a_bounded_tree() {
        // Issue 41: `ismcts:999999999` asked for 32 GB up front and killed
        // the studio. The reservation is bounded; the search grows past it.
        let agent = IsmctsAgent::new(Budget::Iterations(999_999_999), 1);
        for t in &agent.trees {
            assert!(
                t.nodes.capacity() <= 2 * MAX_RESERVED_NODES,
                "{}",
                t.nodes.capacity()
            );
        }
    }
}
