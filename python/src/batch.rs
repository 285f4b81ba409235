//! The lab's batch studies for Python, and plain data across the boundary:
//! results cross as JSON values and come out as dicts, lists and numbers.
//!
//! A study runs on a thread of its own while the calling thread, the GIL
//! released, waits for it and looks for signals every 50 ms: Ctrl-C
//! (KeyboardInterrupt) sets the study's stop flag, the games under way
//! finish, and the call returns the games played so far, marked partial,
//! as the CLI does.

use crate::game::Game;
use pyo3::prelude::*;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use watergate_lab::report::{
    self, LoadError, Played, PlayedGame, Report, SimulateError, SimulateOptions, Slice,
};
use watergate_lab::sim::GameFailure;
use watergate_lab::{ladder, sweep};
use watergate_players::agent::AgentSpec;

/// A JSON value as the Python value `json.loads` makes of it.
pub fn to_python(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(v)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// What a running study shares with the thread that waits for it.
pub struct Run {
    /// Set on Ctrl-C: no new game starts.
    pub stop: AtomicBool,
    /// Games finished so far.
    pub done: AtomicU64,
}

impl Run {
    /// The progress callback the lab's runners take.
    pub fn progress(&self, games: u64) {
        self.done.fetch_max(games, Ordering::Relaxed);
    }
}

/// Runs `work` off the GIL on its own thread; returns its result and
/// whether Ctrl-C stopped it. With `bar`, a line on stderr shows the
/// games done out of `total` and the games per second.
pub fn run_interruptible<T: Send>(
    py: Python<'_>,
    total: u64,
    bar: bool,
    work: impl FnOnce(&Run) -> T + Send,
) -> PyResult<(T, bool)> {
    let run = Run {
        stop: AtomicBool::new(false),
        done: AtomicU64::new(0),
    };
    let started = Instant::now();
    let mut interrupted = false;
    let mut other_error = None;
    let result = std::thread::scope(|scope| {
        let worker = scope.spawn(|| work(&run));
        while !worker.is_finished() {
            py.detach(|| std::thread::sleep(Duration::from_millis(50)));
            if let Err(e) = py.check_signals() {
                // Ctrl-C or another signal handler's error: stop the games
                // and keep what was played.
                interrupted = true;
                run.stop.store(true, Ordering::SeqCst);
                if !e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
                    other_error = Some(e);
                }
            }
            if bar {
                show_bar(&run, total, started);
            }
        }
        py.detach(|| worker.join())
    });
    if bar {
        show_bar(&run, total, started);
        eprintln!();
    }
    if let Some(e) = other_error {
        return Err(e);
    }
    match result {
        Ok(value) => Ok((value, interrupted)),
        Err(_) => Err(pyo3::exceptions::PyRuntimeError::new_err(
            "the study's thread panicked",
        )),
    }
}

fn show_bar(run: &Run, total: u64, started: Instant) {
    let done = run.done.load(Ordering::Relaxed);
    let rate = done as f64 / started.elapsed().as_secs_f64().max(1e-9);
    let mut err = std::io::stderr();
    let _ = write!(err, "\r{done}/{total} games, {rate:.0} games/s");
    let _ = err.flush();
}

fn value_error(m: impl Into<String>) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(m.into())
}

fn agent(what: &str, spec: &str) -> PyResult<AgentSpec> {
    AgentSpec::parse(spec).map_err(|e| value_error(format!("{what} {spec:?}: {e}")))
}

/// A game that failed, with where and how to replay it (as the CLI says).
fn failure(f: &GameFailure, label: &str, run_seed: u64) -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(format!(
        "{f}\n  in game {} of `{label}` (seed {run_seed}, game seed {})",
        f.index, f.seed
    ))
}

fn load_error(e: LoadError) -> PyErr {
    match e {
        LoadError::Data(d) => crate::game::data_error(d),
        LoadError::Message(m) => value_error(m),
    }
}

/// `watergate simulate --json`, as a JSON text: the same options, the same
/// figures for the same seed. `against` is a spec as on the command line
/// (`shipped`, `base`, a folder, a variant file) or another `Game`.
#[pyfunction]
#[pyo3(signature = (game, games=None, seed=1, editor="random", nixon="random", against=None, against_game=None, precision=None, shard=None, slice=None, threads=None, progress=false))]
#[allow(clippy::too_many_arguments)]
fn simulate_json(
    py: Python<'_>,
    game: &Game,
    games: Option<u64>,
    seed: u64,
    editor: &str,
    nixon: &str,
    against: Option<&str>,
    against_game: Option<&Game>,
    precision: Option<f64>,
    shard: Option<String>,
    slice: Option<(u64, u64)>,
    threads: Option<usize>,
    progress: bool,
) -> PyResult<String> {
    let g = &game.loaded;
    let this = Played {
        label: &g.label,
        rules: &g.rules,
    };
    let spec_game = match against {
        None => None,
        Some(spec) => {
            let data = g.source.as_ref().and_then(|s| s.data.clone());
            let other = PlayedGame::against(spec, data.as_deref()).map_err(load_error)?;
            if other.rules.fingerprint == g.rules.fingerprint {
                return Err(value_error(format!(
                    "against {spec:?}: that is the same game as the one played ({}): nothing to compare",
                    g.label
                )));
            }
            Some(other)
        }
    };
    let other = match (&spec_game, against_game) {
        (Some(p), _) => Some(p.played()),
        (None, Some(a)) => Some(Played {
            label: &a.loaded.label,
            rules: &a.loaded.rules,
        }),
        (None, None) => None,
    };
    let games = games.unwrap_or(if precision.is_some() { 1_000_000 } else { 1000 });
    let options = SimulateOptions {
        games,
        seed,
        editor: agent("editor", editor)?,
        nixon: agent("nixon", nixon)?,
        precision,
        shard,
        slice: slice.map(|(first_game, games)| Slice { first_game, games }),
        threads: threads.unwrap_or_else(watergate_lab::runner::cores).max(1),
    };
    let total = options.slice.as_ref().map_or(games, |s| s.games);
    let (sim, _) = run_interruptible(py, total, progress, |run| {
        report::simulate(this, other, &options, &|n| run.progress(n), &run.stop)
    })?;
    let sim = sim.map_err(|e| match e {
        SimulateError::Message(m) => value_error(m),
        SimulateError::Failure {
            failure: f,
            against,
        } => {
            let label = match (against, other) {
                (true, Some(o)) => o.label,
                _ => this.label,
            };
            failure(&f, label, seed)
        }
    })?;
    Ok(sim.json.to_string())
}

/// `watergate merge --json` of `simulate` results (JSON texts): shards of
/// one run combined exactly; a game counted twice or another run refused.
#[pyfunction]
fn merge_json(results: Vec<String>) -> PyResult<String> {
    let mut reports = Vec::new();
    for (i, text) in results.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| value_error(format!("result {i}: not a simulate result: {e}")))?;
        if v["partial"] == true {
            return Err(value_error(format!(
                "result {i}: a run stopped by Ctrl-C covers only its first games; run that shard again to merge it"
            )));
        }
        let r = Report::from_json(&v).map_err(|e| value_error(format!("result {i}: {e}")))?;
        reports.push((format!("result {i}"), r));
    }
    let m = report::merge_reports(reports).map_err(value_error)?;
    let mut v = m.to_json();
    if m.covered() != m.run.games {
        v["games_covered"] = serde_json::json!(m.covered());
    }
    Ok(v.to_string())
}

/// `watergate ladder --json`: every agent against every agent on both sides.
#[pyfunction]
#[pyo3(signature = (game, agents, games=20, seed=1, threads=None, progress=false))]
fn ladder_json(
    py: Python<'_>,
    game: &Game,
    agents: Vec<String>,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    progress: bool,
) -> PyResult<String> {
    let agents = agents
        .iter()
        .map(|a| agent("agent", a))
        .collect::<PyResult<Vec<_>>>()?;
    if agents.len() < 2 {
        return Err(value_error("agents: give at least two agents"));
    }
    if games == 0 {
        return Err(value_error("games must be at least 1"));
    }
    let g = &game.loaded;
    let threads = threads.unwrap_or_else(watergate_lab::runner::cores).max(1);
    let total = games * (agents.len() * agents.len()) as u64;
    let start = Instant::now();
    let (pairings, interrupted) = run_interruptible(py, total, progress, |run| {
        ladder::play(
            &g.rules,
            &agents,
            games,
            seed,
            threads,
            &|n| run.progress(n),
            &run.stop,
        )
    })?;
    let pairings = pairings.map_err(|f| failure(&f, &g.label, seed))?;
    let finished: u64 = pairings.iter().map(|p| p.games).sum();
    let secs = start.elapsed().as_secs_f64();
    let ladder = ladder::Ladder::new(&agents, games, seed, pairings);
    let mut v = serde_json::json!(ladder);
    if interrupted {
        v["partial"] = serde_json::json!(true);
        v["games_finished"] = serde_json::json!(finished);
        v["games_asked"] = serde_json::json!(total);
    }
    v["seconds"] = serde_json::json!(secs);
    v["threads"] = serde_json::json!(threads);
    v["game"] = serde_json::json!(g.source_label);
    Ok(v.to_string())
}

/// `watergate sweep --json`: the same games at every value of one or two
/// parameters (`NAME=V1,V2,…`).
#[pyfunction]
#[pyo3(signature = (game, params, games=200, seed=1, editor="heuristic", nixon="heuristic", shard=None, threads=None, progress=false))]
#[allow(clippy::too_many_arguments)]
fn sweep_json(
    py: Python<'_>,
    game: &Game,
    params: Vec<String>,
    games: u64,
    seed: u64,
    editor: &str,
    nixon: &str,
    shard: Option<String>,
    threads: Option<usize>,
    progress: bool,
) -> PyResult<String> {
    let params = params
        .iter()
        .map(|p| sweep::Param::parse(p).map_err(|e| value_error(format!("param {p:?}: {e}"))))
        .collect::<PyResult<Vec<_>>>()?;
    if params.is_empty() || params.len() > 2 {
        return Err(value_error(format!(
            "give one or two params NAME=V1,V2,… (got {})",
            params.len()
        )));
    }
    if games == 0 {
        return Err(value_error("games must be at least 1"));
    }
    let g = &game.loaded;
    let Some(source) = &g.source else {
        return Err(value_error(
            "a sweep changes the game's files: load the game with load(data, variant), not load_files",
        ));
    };
    let (editor, nixon) = (agent("editor", editor)?, agent("nixon", nixon)?);
    let (first, count) = match &shard {
        Some(s) => {
            let slice = report::parse_shard(s, games).map_err(value_error)?;
            (slice.first_game, slice.games)
        }
        None => (0, games),
    };
    let threads = threads.unwrap_or_else(watergate_lab::runner::cores).max(1);
    let key = sweep::SweepKey {
        params: params.clone(),
        games,
        seed,
        editor: editor.to_string(),
        nixon: nixon.to_string(),
        variant: source.variant.as_ref().map(|p| p.display().to_string()),
        game: g.source_label.clone(),
    };
    let base = source.base().map_err(crate::game::data_error)?;
    let setup = sweep::Setup {
        base: &base,
        variant: source.variant.as_deref(),
    };
    let asked = count * sweep::points(&params).len() as u64;
    let (result, interrupted) = run_interruptible(py, asked, progress, |run| {
        sweep::run(
            &setup,
            &key,
            (first, count),
            (&editor, &nixon),
            threads,
            &|n| run.progress(n),
            &run.stop,
        )
    })?;
    let result = result.map_err(value_error)?;
    let finished: u64 = result.points.iter().map(|p| p.tally.games).sum();
    let mut v = result.json();
    if interrupted {
        v["partial"] = serde_json::json!(true);
        v["games_finished"] = serde_json::json!(finished);
        v["games_asked"] = serde_json::json!(asked);
    }
    Ok(v.to_string())
}

/// Adds the studies to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_json, m)?)?;
    m.add_function(wrap_pyfunction!(merge_json, m)?)?;
    m.add_function(wrap_pyfunction!(ladder_json, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_json, m)?)?;
    Ok(())
}
