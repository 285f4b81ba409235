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
use watergate_core::data::GameSource;
use watergate_lab::report::{
    self, Played, PlayedGame, Report, RunError, SimulateError, SimulateOptions, Slice,
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
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        // The worker says it is done and wakes this thread, so a short
        // study returns at once rather than at the next look for signals (a
        // cluster's shards are many short studies: waiting out a 50 ms
        // sleep was 50 ms of overhead each). The flag, not `is_finished`,
        // says so: the thread is still ending just after the wake-up, and
        // a second sleep would wait the whole 50 ms.
        let waiter = std::thread::current();
        let (run, done) = (&run, &done);
        let worker = scope.spawn(move || {
            let value = work(run);
            done.store(true, Ordering::SeqCst);
            waiter.unpark();
            value
        });
        // `is_finished` as well: a worker that panicked never sets the flag.
        while !done.load(Ordering::SeqCst) && !worker.is_finished() {
            py.detach(|| std::thread::park_timeout(Duration::from_millis(50)));
            if done.load(Ordering::SeqCst) {
                break;
            }
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
                show_bar(run, total, started);
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

/// The agent `spec` names (`random`, `heuristic`, `ismcts:1000`, as on the
/// command line), as the engine writes it; a spec that names none raises
/// ValueError saying why (`EngineBot` checks its spec with it).
#[pyfunction]
fn agent_spec(spec: &str) -> PyResult<String> {
    Ok(agent("agent", spec)?.to_string())
}

/// A game that failed, with where and how to replay it (as the CLI says).
fn failure(f: &GameFailure, label: &str, run_seed: u64) -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(format!(
        "{f}\n  in game {} of `{label}` (seed {run_seed}, game seed {})",
        f.index, f.seed
    ))
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
            let data = g.study_source().and_then(|s| s.data);
            let other = PlayedGame::against(spec, data.as_deref())
                .map_err(|e| crate::game::against_error(spec, e))?;
            if other.rules.fingerprint == g.rules.fingerprint {
                return Err(value_error(report::same_game(
                    spec,
                    data.is_some(),
                    &g.label,
                    &other.label,
                )));
            }
            Some(other)
        }
    };
    if let Some(a) = against_game.filter(|a| a.loaded.rules.fingerprint == g.rules.fingerprint) {
        // As `--against` of the same game: a comparison with itself.
        return Err(value_error(format!(
            "against: `{}` and `{}` are the same game (same rules), so there is nothing to compare; give a Game of other data or another variant",
            g.label, a.loaded.label
        )));
    }
    let other = match (&spec_game, against_game) {
        (Some(p), _) => Some(p.played()),
        (None, Some(a)) => Some(Played {
            label: &a.loaded.label,
            rules: &a.loaded.rules,
        }),
        (None, None) => None,
    };
    let games = games.unwrap_or(if precision.is_some() { 1_000_000 } else { 1000 });
    if let Some((first_game, n)) = slice {
        if let Some(shard) = &shard {
            return Err(value_error(format!(
                "shard {shard:?} and slice ({first_game}, {n}): give one or the other, not both (a shard is itself a slice of the run)"
            )));
        }
        if n == 0 {
            return Err(value_error(format!(
                "slice ({first_game}, 0): a slice of no games plays nothing; give 1 game or more"
            )));
        }
        if first_game.checked_add(n).is_none_or(|end| end > games) {
            return Err(value_error(format!(
                "slice {first_game}..{}: expected games within the run's 0..{games}",
                u128::from(first_game) + u128::from(n)
            )));
        }
    }
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

/// A lab run's failure as the Python exception that says the same.
fn run_error(e: RunError) -> PyErr {
    match e {
        RunError::Data(d) => crate::game::data_error(d),
        RunError::Message(m) => value_error(m),
        RunError::Failure { message, .. } => pyo3::exceptions::PyRuntimeError::new_err(message),
        RunError::Interrupted(m) => pyo3::exceptions::PyKeyboardInterrupt::new_err(m),
    }
}

/// Where a game's files came from, for the studies that read them again
/// (a sweep changes them; a ladder loads them as the CLI does).
fn source_of(game: &Game, study: &str) -> PyResult<GameSource> {
    game.loaded.study_source().ok_or_else(|| {
        value_error(format!(
            "a {study} reads the game's files: load the game with load(data, variant), not load_files"
        ))
    })
}

fn threads_or_cores(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(watergate_lab::runner::cores).max(1)
}

/// `watergate ladder --json`: every agent against every agent on both
/// sides, run by the lab's `ladder::LadderOptions` as the CLI runs it.
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
    let options = ladder::LadderOptions {
        game: source_of(game, "ladder")?,
        agents: agents
            .iter()
            .map(|a| agent("agent", a))
            .collect::<PyResult<Vec<_>>>()?,
        games,
        seed,
        threads: threads_or_cores(threads),
    };
    let prepared = options.prepare().map_err(run_error)?;
    let (run, _) = run_interruptible(py, prepared.total(), progress, |run| {
        prepared.run(&run.stop, Some(&|n| run.progress(n)))
    })?;
    Ok(run.map_err(run_error)?.json.to_string())
}

/// `watergate sweep --json`: the same games at every value of one or two
/// parameters (`NAME=V1,V2,…`), run by the lab's `sweep::SweepOptions` as
/// the CLI runs it.
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
    let options = sweep_options(game, params, games, seed, (editor, nixon))?;
    let options = sweep::SweepOptions {
        shard,
        threads: threads_or_cores(threads),
        ..options
    };
    let prepared = options.prepare().map_err(run_error)?;
    let (run, _) = run_interruptible(py, prepared.total(), progress, |run| {
        prepared.run(&run.stop, Some(&|n| run.progress(n)))
    })?;
    Ok(run.map_err(run_error)?.json.to_string())
}

fn sweep_options(
    game: &Game,
    params: Vec<String>,
    games: u64,
    seed: u64,
    (editor, nixon): (&str, &str),
) -> PyResult<sweep::SweepOptions> {
    Ok(sweep::SweepOptions {
        game: source_of(game, "sweep")?,
        params: params
            .iter()
            .map(|p| sweep::Param::parse(p).map_err(|e| value_error(format!("param {p:?}: {e}"))))
            .collect::<PyResult<Vec<_>>>()?,
        games,
        seed,
        editor: agent("editor", editor)?,
        nixon: agent("nixon", nixon)?,
        shard: None,
        threads: 1,
    })
}

/// A point of a sweep plan: its label and its files (path, bytes).
type PlannedPoint = (String, Vec<(String, Vec<u8>)>);

/// A sweep cut into simulations, for a cluster: the sweep's key (JSON) and,
/// point by point in the sweep's order, the point's label and its files
/// (what `load_files` takes). Each point's games are then a simulation
/// of those files on the sweep's seed and agents, cut into slices anywhere.
#[pyfunction]
#[pyo3(signature = (game, params, games=200, seed=1, editor="heuristic", nixon="heuristic"))]
fn sweep_plan(
    game: &Game,
    params: Vec<String>,
    games: u64,
    seed: u64,
    editor: &str,
    nixon: &str,
) -> PyResult<(String, Vec<PlannedPoint>)> {
    let prepared = sweep_options(game, params, games, seed, (editor, nixon))?
        .prepare()
        .map_err(run_error)?;
    let key = serde_json::to_string(prepared.key()).map_err(|e| value_error(e.to_string()))?;
    let points = prepared
        .point_datasets()
        .map_err(value_error)?
        .into_iter()
        .map(|(_, label, ds)| (label, ds.files.into_iter().collect()))
        .collect();
    Ok((key, points))
}

/// The `simulate` results (JSON texts) of one cell of a study cut for a
/// cluster, merged: every game of the run exactly once, or with `partial`
/// whatever was finished (`None` for nothing).
fn merged_cell(what: &str, results: &[String], partial: bool) -> PyResult<Option<Report>> {
    let mut reports = Vec::new();
    for (i, text) in results.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| value_error(format!("{what}, result {i}: not a simulate result: {e}")))?;
        let r =
            Report::from_json(&v).map_err(|e| value_error(format!("{what}, result {i}: {e}")))?;
        reports.push((format!("{what}, result {i}"), r));
    }
    if reports.is_empty() && partial {
        return Ok(None);
    }
    let m = report::merge_reports(reports).map_err(|e| value_error(format!("{what}: {e}")))?;
    if !partial && m.covered() != m.run.games {
        return Err(value_error(format!(
            "{what}: the results cover {} of its {} games",
            m.covered(),
            m.run.games
        )));
    }
    Ok(Some(m))
}

/// The sweep of `sweep_plan`'s key from each point's simulations, as
/// `watergate sweep --json` prints it: each point's slices merged (every
/// game exactly once, or the run refused). With `partial` (Ctrl-C), the
/// points as far as they were played, marked partial.
#[pyfunction]
#[pyo3(signature = (key, points, partial=false))]
fn sweep_assemble(key: &str, points: Vec<Vec<String>>, partial: bool) -> PyResult<String> {
    let key: sweep::SweepKey =
        serde_json::from_str(key).map_err(|e| value_error(format!("not a sweep key: {e}")))?;
    let all = sweep::points(&key.params);
    if points.len() != all.len() {
        return Err(value_error(format!(
            "the sweep has {} points; results for {} were given",
            all.len(),
            points.len()
        )));
    }
    let mut out = Vec::new();
    let mut finished = 0;
    for (pt, results) in all.iter().zip(&points) {
        let name = sweep::label(&key.params, pt);
        if let Some(m) = merged_cell(&format!("sweep point {name}"), results, partial)? {
            finished += m.result.tally.games;
            out.push(sweep::PointResult {
                point: pt.clone(),
                label: name,
                tally: m.result.tally,
            });
        }
    }
    let asked = key.games * all.len() as u64;
    let result = sweep::SweepResult {
        // A whole sweep covers every point's games; a partial one, as the
        // CLI's, is refused by `--merge` whatever its slices say.
        slices: vec![(0, key.games)],
        key,
        points: out,
    };
    let mut v = result.json();
    if partial {
        report::mark_partial(&mut v, finished, asked);
    }
    Ok(v.to_string())
}

/// The ladder of `agents` from each pairing's simulations (JSON texts of
/// `simulate` with that Editor and Nixon, `games` per pairing on `seed`),
/// as `watergate ladder --json` prints it: the pairings in the ladder's
/// order, each merged from its slices (every game exactly once). With
/// `partial` (Ctrl-C), the pairings as far as they were played.
#[pyfunction]
#[pyo3(signature = (game, agents, games, seed, pairings, partial=false))]
fn ladder_assemble(
    game: &Game,
    agents: Vec<String>,
    games: u64,
    seed: u64,
    pairings: Vec<Vec<String>>,
    partial: bool,
) -> PyResult<String> {
    let agents = agents
        .iter()
        .map(|a| agent("agent", a))
        .collect::<PyResult<Vec<_>>>()?;
    let n = agents.len();
    if pairings.len() != n * n {
        return Err(value_error(format!(
            "{n} agents make {} pairings; results for {} were given",
            n * n,
            pairings.len()
        )));
    }
    let mut played = Vec::new();
    for (k, results) in pairings.iter().enumerate() {
        let (e, x) = (k / n, k % n);
        let what = format!("pairing {} v {}", agents[e], agents[x]);
        let Some(m) = merged_cell(&what, results, partial)? else {
            continue;
        };
        if m.run.games != games
            || m.run.seed != seed
            || m.run.editor != agents[e].to_string()
            || m.run.nixon != agents[x].to_string()
        {
            return Err(value_error(format!(
                "{what}: the results are of another run ({:?})",
                m.run
            )));
        }
        let t = &m.result.tally;
        played.push(ladder::Pairing {
            editor: e,
            nixon: x,
            games: t.games,
            editor_wins: t.editor_wins,
            mean_rounds: t.mean_rounds(),
        });
    }
    if played.is_empty() {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "no game had finished: nothing to rate",
        ));
    }
    let finished: u64 = played.iter().map(|p| p.games).sum();
    let mut v = serde_json::json!(ladder::Ladder::new(&agents, games, seed, played));
    if partial {
        report::mark_partial(&mut v, finished, games * (n * n) as u64);
    }
    v["game"] = serde_json::json!(game.loaded.source_label);
    Ok(v.to_string())
}

/// Adds the studies to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(agent_spec, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_json, m)?)?;
    m.add_function(wrap_pyfunction!(merge_json, m)?)?;
    m.add_function(wrap_pyfunction!(ladder_json, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_json, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_plan, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_assemble, m)?)?;
    m.add_function(wrap_pyfunction!(ladder_assemble, m)?)?;
    Ok(())
}
