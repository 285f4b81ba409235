//! The benchmark suite behind `watergate bench` and `cargo bench`: the
//! figures of BENCHMARKS.md, measured on the shipped data (or on the game
//! `watergate bench --data/--variant` is given). Timings are
//! wall-clock on this machine; run it on an idle machine.

use crate::data::{self, DataSet};
use crate::driver::{play_out, play_out_alone, OnDecision};
use crate::game::engine::{Actor, Choice};
use crate::game::host::{CardContext, ScriptFailure, ScriptHost};
use crate::game::model::Side;
use crate::game::program::Program;
use crate::game::rules::Rules;
use crate::game::script_view::ScriptView;
use crate::game::state::{Frame, State};
use crate::game::view::View;
use crate::players::agent::{Agent, AgentSpec, Budget, IsmctsAgent, Playout, RandomAgent, Search};
use crate::sim::{simulate, SimConfig};
use crate::stats::Runs;
use std::hint::black_box;
use std::io::Write;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A global allocator that counts allocations (`alloc`, `alloc_zeroed`
/// and `realloc`) and hands them to the system's: the bench's figures of
/// heap allocations per engine step and per ISMCTS iteration. Installed by
/// the `watergate` binary and by `cargo bench` (`#[global_allocator]`);
/// counting is one relaxed atomic add per allocation. It lives here, outside
/// the rules core, which keeps no global counters.
pub struct CountingAlloc;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on unchanged to the system allocator.
unsafe impl std::alloc::GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is the system's; passed on unchanged.
        unsafe { std::alloc::System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc_zeroed` is the system's; passed on unchanged.
        unsafe { std::alloc::System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: the caller's contract for `dealloc` is the system's; passed on unchanged.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `realloc` is the system's; passed on unchanged.
        unsafe { std::alloc::System.realloc(ptr, layout, new_size) }
    }
}

/// Heap allocations made so far by this process, if [`CountingAlloc`] is
/// its global allocator (`None` otherwise: nothing was ever counted).
pub fn allocations() -> Option<u64> {
    match ALLOCATIONS.load(Ordering::Relaxed) {
        0 => None,
        n => Some(n),
    }
}

/// A scripting host that times every run of the host it wraps: the bench's
/// share of time inside rhai, measured here so the core reads no clock.
#[derive(Debug)]
struct TimedHost {
    inner: Arc<dyn ScriptHost>,
    nanos: Arc<AtomicU64>,
}

impl ScriptHost for TimedHost {
    fn run(
        &self,
        unit: usize,
        ctx: &CardContext,
        view: Option<ScriptView>,
    ) -> Result<(Program, bool), ScriptFailure> {
        let start = Instant::now();
        let result = self.inner.run(unit, ctx, view);
        self.nanos
            .fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        result
    }

    fn display(&self, unit: usize) -> &str {
        self.inner.display(unit)
    }

    fn text(&self, unit: usize) -> &str {
        self.inner.text(unit)
    }

    fn units(&self) -> usize {
        self.inner.units()
    }

    fn file(&self, unit: usize) -> &str {
        self.inner.file(unit)
    }

    fn revealing_calls(&self, unit: usize) -> Vec<watergate_core::game::host::RevealingCall> {
        self.inner.revealing_calls(unit)
    }

    fn calls(&self, unit: usize) -> std::collections::BTreeSet<String> {
        self.inner.calls(unit)
    }
}

/// Wraps the rules' scripting host in a [`TimedHost`]; returns the counter
/// of nanoseconds spent in scripts.
fn time_scripts(r: &mut Rules) -> Arc<AtomicU64> {
    let nanos = Arc::new(AtomicU64::new(0));
    r.scripts = Arc::new(TimedHost {
        inner: r.scripts.clone(),
        nanos: nanos.clone(),
    });
    nanos
}

#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Smaller runs (for a quick look, and for the test that the bench works).
    pub quick: bool,
    /// Also measure the peak memory of a simulation of this many games (in a child process).
    pub peak_memory_games: Option<u64>,
    /// Where the game comes from, passed on to that child process.
    pub game: crate::data::GameSource,
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// The seed of the bench's random games.
pub const SEED: u64 = 7;

/// How many times the one-core figures (random games, ISMCTS) are timed.
const RUNS: u64 = 5;

/// Random games per second on `threads` threads, games `first_game..` of
/// the bench's seed, and the share of the time spent in rhai (measured
/// only if `script_nanos`, the counter of a [`TimedHost`] installed in
/// `r`, is given).
fn random_games_timed(
    r: &Rules,
    games: u64,
    first_game: u64,
    threads: usize,
    script_nanos: Option<&AtomicU64>,
) -> (f64, f64) {
    let before = script_nanos.map_or(0, |n| n.load(Ordering::Relaxed));
    let cfg = SimConfig {
        games,
        seed: SEED,
        first_game,
        editor: AgentSpec::Random,
        nixon: AgentSpec::Random,
        threads,
    };
    let start = Instant::now();
    let tally = simulate(r, &cfg, &|_| {}).expect("random games run");
    let elapsed = start.elapsed();
    let after = script_nanos.map_or(0, |n| n.load(Ordering::Relaxed));
    let in_rhai = secs(Duration::from_nanos(after - before)) / threads as f64;
    (tally.games as f64 / secs(elapsed), in_rhai / secs(elapsed))
}

/// Random games per second on one core: games `0..games` of the bench's
/// seed in `runs` runs of equal size, one after the other (the same games
/// as one run of them all), and the share of the time spent in rhai over
/// all of them (the rules' scripting host is wrapped in a timer for it).
fn random_games(r: &mut Rules, games: u64, runs: u64) -> (Runs, f64) {
    let original = r.scripts.clone();
    let nanos = time_scripts(r);
    let runs = runs.max(1);
    let per_run = (games / runs).max(1);
    let (mut rates, mut time, mut in_rhai) = (Vec::new(), 0.0, 0.0);
    for run in 0..runs {
        let (rate, share) = random_games_timed(r, per_run, run * per_run, 1, Some(&nanos));
        let seconds = per_run as f64 / rate;
        rates.push(rate);
        time += seconds;
        in_rhai += share * seconds;
    }
    r.scripts = original;
    (Runs(rates), in_rhai / time)
}

/// A state in the middle of a card action (a program running), from a random game.
pub fn mid_action_state(r: &Rules) -> State {
    // Stops a game in the middle of a card action after round 1.
    let mut mid_action = OnDecision(|s: &State, _: Actor, _: &[Choice]| {
        if s.stack().iter().any(|f| matches!(f, Frame::Run(_))) && s.round() > 1 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    for seed in 0.. {
        let mut s = State::new(r, seed);
        let (mut e, mut n) = (RandomAgent::new(seed), RandomAgent::new(seed + 1));
        // A game that ends, or fails, before a program runs past round 1:
        // try the next seed.
        if let Ok(played) = play_out(
            r,
            &mut s,
            crate::game::model::BySide::new(&mut e, &mut n),
            None,
            &mut mid_action,
        ) {
            if played.stopped {
                return s;
            }
        }
    }
    unreachable!()
}

/// A decision point: the state, who decides, and the options.
type Point = (State, Side, Vec<Choice>);

/// Every ninth decision point of games played by a random player, `n` in
/// all (for ISMCTS timing).
fn decision_points(r: &Rules, n: usize) -> Vec<Point> {
    let mut out = Vec::new();
    let mut seed = 100;
    while out.len() < n {
        let mut s = State::new(r, seed);
        let mut k = 0usize;
        let mut every_ninth = OnDecision(|s: &State, actor: Actor, options: &[Choice]| {
            if k.is_multiple_of(9) && out.len() < n {
                out.push((
                    s.clone(),
                    actor.side().unwrap_or(Side::Editor),
                    options.to_vec(),
                ));
            }
            k += 1;
            ControlFlow::Continue(())
        });
        // A game that fails is cut short there; its points so far count.
        let _ = play_out_alone(
            r,
            &mut s,
            &mut RandomAgent::new(seed),
            None,
            &mut every_ninth,
        );
        seed += 1;
    }
    out
}

/// Self-play games of `search` (seeds 1..=games): the iterations the
/// searches ran, and the number of searches (decisions with more than one
/// option). A fresh, whole search would run the budget at each.
pub fn iterations_run(r: &Rules, search: Search, games: u64) -> (u64, u64) {
    /// Counts what its search runs.
    struct Counted {
        agent: IsmctsAgent,
        run: u64,
        decisions: u64,
    }
    impl Agent for Counted {
        fn name(&self) -> String {
            self.agent.name()
        }
        fn decide(&mut self, view: &View, options: &[Choice]) -> Choice {
            let c = self.agent.decide(view, options);
            if options.len() > 1 {
                self.run += self.agent.last_iterations as u64;
                self.decisions += 1;
            }
            c
        }
        fn observe(&mut self, actor: Actor, choice: Choice) {
            self.agent.observe(actor, choice);
        }
    }
    let (mut run, mut decisions) = (0, 0);
    for seed in 1..=games {
        let mut s = State::new(r, seed);
        let [mut editor, mut nixon] = [1, 2].map(|k| Counted {
            agent: IsmctsAgent::with_search(search, seed * 10 + k),
            run: 0,
            decisions: 0,
        });
        let mut none = OnDecision(|_: &State, _: Actor, _: &[Choice]| ControlFlow::Continue(()));
        // A game that fails is cut short there; its searches so far count.
        let _ = play_out(
            r,
            &mut s,
            crate::game::model::BySide::new(&mut editor, &mut nixon),
            None,
            &mut none,
        );
        for a in [editor, nixon] {
            run += a.run;
            decisions += a.decisions;
        }
    }
    (run, decisions)
}

/// Heap allocations inside engine steps (`State::apply_next`, a random
/// choice each) over `games` random games: (allocations, steps), or
/// `None` without the counting allocator. Only the steps are counted, not
/// the setup of each game nor the random player.
pub fn step_allocations(r: &Rules, games: u64) -> Option<(u64, u64)> {
    allocations()?;
    let (mut allocs, mut steps) = (0, 0);
    let mut options = Vec::with_capacity(256);
    for seed in 0..games {
        let mut s = State::new(r, seed);
        let mut agent = RandomAgent::new(seed);
        let mut next = s.legal(r, &mut options);
        while next.is_some() {
            let c = options[agent.pick(options.len())];
            let before = allocations()?;
            let result = s.apply_next(r, c, &mut options);
            allocs += allocations()? - before;
            steps += 1;
            match result {
                Ok(n) => next = n,
                Err(_) => break,
            }
        }
    }
    Some((allocs, steps))
}

/// Peak resident memory of this process (Linux), in KiB.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Measures the game made of `ds` (which `cfg.game` names).
pub fn run(out: &mut dyn Write, cfg: &BenchConfig, ds: &DataSet) -> std::io::Result<()> {
    run_with(out, cfg, ds, &|_, _| {})
}

/// The measurements `run_with` takes, in order (for a progress bar).
pub fn steps(cfg: &BenchConfig) -> u64 {
    5 + u64::from(cfg.peak_memory_games.is_some())
}

/// `run`, telling `step` the number of measurements done so far and what
/// comes next, before each one.
pub fn run_with(
    out: &mut dyn Write,
    cfg: &BenchConfig,
    ds: &DataSet,
    step: &dyn Fn(u64, &str),
) -> std::io::Result<()> {
    let cores = crate::runner::cores();
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    // "1 core" when the bench is pinned to one (`taskset -c 0`).
    let cores_word = format!("{cores} core{}", if cores == 1 { "" } else { "s" });
    writeln!(out, "machine: {cores_word}, {cpu}")?;
    writeln!(
        out,
        "build: {}{}",
        if cfg!(debug_assertions) {
            "debug (figures are not meaningful)"
        } else {
            "release"
        },
        // Set by a build script that builds differently from a plain
        // `cargo build --release` (benches/pgo-build.sh), so a figure says
        // which build it is of.
        option_env!("WATERGATE_BUILD_KIND").map_or(String::new(), |k| format!(", {k}"))
    )?;

    writeln!(out, "game: {}", cfg.game.label())?;
    step(0, "load");

    // 1. Load, validate and compile the card set.
    let runs = if cfg.quick { 3 } else { 20 };
    let mut best = Duration::MAX;
    let mut total = Duration::ZERO;
    for _ in 0..runs {
        let start = Instant::now();
        black_box(data::load(ds).map_err(|d| std::io::Error::other(d.to_string()))?);
        let d = start.elapsed();
        best = best.min(d);
        total += d;
    }
    writeln!(
        out,
        "load + validate + compile the card set: {:.1} ms (mean of {runs}), best {:.1} ms",
        secs(total) * 1000.0 / runs as f64,
        secs(best) * 1000.0
    )?;
    let mut r = data::load(ds).map_err(|d| std::io::Error::other(d.to_string()))?;

    step(1, "random games");

    // 2. Random games per second on one core, actions on.
    let games = if cfg.quick { 2_000 } else { 40_000 };
    let (runs1, share) = random_games(&mut r, games, RUNS);
    let gps1 = runs1.median();
    writeln!(
        out,
        "random games per second, one core, card actions on: {}",
        runs1.describe(&format!("{} games", games / RUNS))
    )?;
    writeln!(out, "  share of time inside rhai: {:.2}% (shipped scripts read no state: their programs are computed once, at load)", share * 100.0)?;
    let mut dynamic = data::load(ds).map_err(|d| std::io::Error::other(d.to_string()))?;
    dynamic.force_dynamic_scripts();
    let dyn_games = games / 10;
    let (gps_dyn, share_dyn) = random_games(&mut dynamic, dyn_games, 1);
    let gps_dyn = gps_dyn.median();
    writeln!(
        out,
        "  for comparison, every script run at every play: {gps_dyn:.0} games/s, {:.1}% of the time inside rhai",
        share_dyn * 100.0
    )?;

    match step_allocations(&r, if cfg.quick { 200 } else { 2_000 }) {
        Some((allocs, steps)) => writeln!(
            out,
            "heap allocations per engine step: {:.3} ({allocs} in {steps} steps of random games)",
            allocs as f64 / steps as f64
        )?,
        None => writeln!(
            out,
            "heap allocations per engine step: not counted (the counting allocator is not installed)"
        )?,
    }

    step(2, "state clone");

    // 3. Clone of a mid-action state.
    let s = mid_action_state(&r);
    let n = if cfg.quick { 200_000 } else { 2_000_000 };
    let start = Instant::now();
    for _ in 0..n {
        black_box(black_box(&s).clone());
    }
    let per = secs(start.elapsed()) * 1e9 / n as f64;
    writeln!(
        out,
        "clone of a mid-action game state: {per:.0} ns; {} bytes inline + {} bytes on the heap = {} bytes",
        std::mem::size_of::<State>(),
        s.heap_bytes(),
        std::mem::size_of::<State>() + s.heap_bytes()
    )?;

    step(3, "ISMCTS");

    // 4. ISMCTS.
    let points = decision_points(&r, if cfg.quick { 4 } else { 30 });
    let mut agent = IsmctsAgent::new(Budget::Iterations(1000), 1);
    // The bench's own lists are made before the count starts.
    let mut rates = Vec::with_capacity(RUNS as usize);
    let mut pass_seconds = Vec::with_capacity(RUNS as usize);
    let mut iterations = 0u64;
    let allocs_before = allocations();
    for _ in 0..RUNS {
        let mut pass_iterations = 0u64;
        let start = Instant::now();
        for (s, side, options) in &points {
            let view = View::new(&r, s, *side);
            black_box(agent.decide(&view, options));
            pass_iterations += agent.last_iterations as u64;
        }
        let pass = secs(start.elapsed());
        rates.push(pass_iterations as f64 / pass);
        pass_seconds.push(pass);
        iterations += pass_iterations;
    }
    let allocs = allocations().zip(allocs_before).map(|(a, b)| a - b);
    // The pass of median length stands for one core below.
    let elapsed = Runs(pass_seconds).median();
    writeln!(
        out,
        "ISMCTS, one core: {} iterations per second; {:.1} ms per decision at 1000 iterations",
        Runs(rates).describe(&format!("{} decisions", points.len())),
        elapsed * 1000.0 / points.len() as f64,
    )?;
    match allocs {
        Some(a) => writeln!(
            out,
            "  heap allocations per ISMCTS iteration: {:.3} ({a} in {iterations} iterations, {:.1} per decision)",
            a as f64 / iterations as f64,
            a as f64 / (RUNS as usize * points.len()) as f64
        )?,
        None => writeln!(
            out,
            "  heap allocations per ISMCTS iteration: not counted (the counting allocator is not installed)"
        )?,
    }

    // 4a. The same decisions with every playout played to the end (the
    // search before playouts were judged): what judging saves.
    let mut agent = IsmctsAgent::with_search(
        Search {
            playout: Playout::Full,
            ..Search::from(Budget::Iterations(1000))
        },
        1,
    );
    let (start, mut full_iterations) = (Instant::now(), 0);
    for (s, side, options) in &points {
        black_box(agent.decide(&View::new(&r, s, *side), options));
        full_iterations += agent.last_iterations as u64;
    }
    let full = secs(start.elapsed());
    writeln!(
        out,
        "ISMCTS with playouts to the end (ismcts:1000:playout=full), one core: {:.0} iterations per second; {:.1} ms per decision",
        full_iterations as f64 / full,
        full * 1000.0 / points.len() as f64,
    )?;

    // 4b. Root parallelism: the same decisions, the same 1000 iterations
    // shared by one tree per core (at least two).
    let threads = cores.clamp(2, 64) as u8;
    let mut agent = IsmctsAgent::with_search(
        Search {
            threads,
            ..Search::from(Budget::Iterations(1000))
        },
        1,
    );
    let start = Instant::now();
    for (s, side, options) in &points {
        black_box(agent.decide(&View::new(&r, s, *side), options));
    }
    let parallel = secs(start.elapsed());
    writeln!(
        out,
        "ISMCTS root-parallel (ismcts:1000:threads={threads}): {:.1} ms per decision ({:.2}x as fast as one thread)",
        parallel * 1000.0 / points.len() as f64,
        elapsed / parallel
    )?;

    // 4c. What tree reuse and settling save: self-play games of
    // `ismcts:N:reuse`, `ismcts:N:settle` and both.
    let (budget, saving_games) = if cfg.quick { (200, 1) } else { (1000, 4) };
    let whole = Search::from(Budget::Iterations(budget));
    for (search, what, saved) in [
        (
            Search {
                reuse: true,
                ..whole
            },
            "with tree reuse",
            "kept from the decision before",
        ),
        (
            Search {
                settle: true,
                ..whole
            },
            "settling",
            "not run: the choice was out of reach",
        ),
        (
            Search {
                reuse: true,
                settle: true,
                ..whole
            },
            "with reuse and settling",
            "kept or not run",
        ),
    ] {
        let (run, decisions) = iterations_run(&r, search, saving_games);
        writeln!(
            out,
            "ISMCTS {what} (ismcts:{search} self-play, {saving_games} game{}): {:.0} iterations run per decision of {budget} ({:.0}% {saved}; {decisions} decisions)",
            if saving_games == 1 { "" } else { "s" },
            run as f64 / decisions.max(1) as f64,
            100.0 - 100.0 * run as f64 / (decisions.max(1) * budget as u64) as f64,
        )?;
    }

    step(4, "all cores");

    // 5. All cores against one.
    let (gps_all, _) = random_games_timed(&r, games, 0, cores, None);
    writeln!(
        out,
        "random games per second on {cores_word}: {gps_all:.0} ({:.2}x one core)",
        gps_all / gps1
    )?;

    step(5, "peak memory");

    // 6. Peak memory of a long simulation, in a child process.
    if let Some(g) = cfg.peak_memory_games {
        let exe = std::env::current_exe()?;
        let start = Instant::now();
        let mut child = std::process::Command::new(exe);
        child.args([
            "simulate",
            "--games",
            &g.to_string(),
            "--report-peak-memory",
            "--json",
        ]);
        if let Some(d) = &cfg.game.data {
            child.arg("--data").arg(d);
        }
        if let Some(v) = &cfg.game.variant {
            child.arg("--variant").arg(v);
        }
        let child = child.output()?;
        let text = String::from_utf8_lossy(&child.stdout);
        let peak = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v["peak_memory_kib"].as_u64());
        match peak {
            Some(kib) => writeln!(
                out,
                "peak memory of a {g}-game simulation on {cores_word}: {:.1} MiB ({:.0} s)",
                kib as f64 / 1024.0,
                secs(start.elapsed())
            )?,
            None => writeln!(
                out,
                "peak memory of a {g}-game simulation: not measured ({})",
                String::from_utf8_lossy(&child.stderr).trim()
            )?,
        }
    }
    Ok(())
}
