//! Lab: a simulation, or a comparison of two games on the same seeds, run
//! from the page with the library code of `watergate simulate` and
//! `simulate --against` (`sim::simulate_compare_until` on the one parallel
//! runner). A run is a job: `POST /api/lab` starts it, `GET
//! /api/lab/{id}/events` streams its progress as server-sent events and
//! then its result (win rates with 95% intervals, the chart of
//! `chart::svg`, the per-card table), `POST /api/lab/{id}/cancel` stops it
//! after the games already started (the result then covers exactly the
//! first games, as after Ctrl-C on the command line).
//!
//! A run nobody watches is cancelled: a page keeps its run alive by
//! listening to its events, asking after it (`GET /api/lab/{id}`) or
//! `POST /api/lab/{id}/keep` every few seconds; after [`UNWATCHED`] with
//! none of these the run is stopped as by Cancel (`unwatched` in its
//! status), so forgotten runs never hold the [`MAX_RUNNING`] slots.
//!
//! Bounds: at most [`MAX_GAMES`] games a run (fewer with a searching
//! agent), [`MAX_RUNNING`] runs at once.

use super::error::{ApiError, JsonBody};
use super::scenarios::Files;
use super::AppState;
use crate::game::rules::Rules;
use crate::lab::sim::{SimConfig, SimResult, Tally};
use crate::lab::stats::{wilson, Interval, Z95};
use crate::players::agent::{AgentSpec, Budget};
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most games one run may ask for.
pub const MAX_GAMES: u64 = 20_000;
/// …when an agent searches (ismcts), whose games are a thousand times slower.
pub const MAX_SEARCH_GAMES: u64 = 200;
/// The largest ismcts budget, in iterations per decision.
pub const MAX_ITERATIONS: u32 = 2_000;
/// Runs at once (each uses the machine's cores).
pub const MAX_RUNNING: usize = 2;
/// Runs remembered (finished ones are forgotten when idle).
pub const MAX_JOBS: usize = 32;
pub const IDLE: Duration = Duration::from_secs(30 * 60);
/// A run no page has listened to or asked after for this long is cancelled.
pub const UNWATCHED: Duration = Duration::from_secs(10);

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/lab", post(start))
        .route("/lab/variants", get(variants))
        .route("/lab/{id}", get(show))
        .route("/lab/{id}/events", get(events))
        .route("/lab/{id}/cancel", post(cancel))
        .route("/lab/{id}/keep", post(keep))
}

/// What to run.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct LabRequest {
    #[serde(deserialize_with = "super::numbers::count")]
    pub games: u64,
    /// A decimal string (or a number).
    #[serde(default = "one", with = "super::numbers::seed")]
    pub seed: u64,
    #[serde(default = "random")]
    pub editor: String,
    #[serde(default = "random")]
    pub nixon: String,
    /// A variant file (`scenarios/variants`) to play the game with.
    #[serde(default)]
    pub variant: Option<String>,
    /// What to compare with: `shipped`, `base` (the game without
    /// `variant`), or a variant file's name.
    #[serde(default)]
    pub against: Option<String>,
}

fn one() -> u64 {
    1
}
fn random() -> String {
    "random".into()
}

/// A run being played or finished.
pub struct Job {
    pub total: u64,
    done: AtomicU64,
    stop: AtomicBool,
    /// Stopped because no page watched it for [`UNWATCHED`].
    unwatched: AtomicBool,
    /// When a page last listened to it or asked after it.
    seen: Mutex<Instant>,
    result: Mutex<Option<Result<LabResult, String>>>,
}

impl Job {
    pub fn new(total: u64) -> Job {
        Job {
            total,
            done: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            unwatched: AtomicBool::new(false),
            seen: Mutex::new(Instant::now()),
            result: Mutex::new(None),
        }
    }

    /// A page is watching: the run goes on.
    fn touch(&self) {
        *self.seen.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }

    fn finished(&self) -> bool {
        self.result
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }
}

/// Watches `job` until it finishes: once no page has touched it for
/// `after`, it is stopped as by Cancel (the games under way finish) and
/// marked unwatched.
pub fn watch(job: &Job, after: Duration) {
    let step = (after / 10).clamp(Duration::from_millis(10), Duration::from_millis(500));
    while !job.finished() && !job.stop.load(Ordering::SeqCst) {
        let since = job.seen.lock().unwrap_or_else(|p| p.into_inner()).elapsed();
        if since >= after {
            job.unwatched.store(true, Ordering::SeqCst);
            job.stop.store(true, Ordering::SeqCst);
            return;
        }
        std::thread::sleep(step);
    }
}

/// The result of a run, as the page draws it.
#[derive(Serialize, Clone, Debug)]
pub struct LabResult {
    pub label: String,
    pub against: Option<String>,
    pub editor: String,
    pub nixon: String,
    /// A decimal string.
    #[serde(serialize_with = "super::numbers::seed::serialize")]
    pub seed: u64,
    pub asked: u64,
    pub games: u64,
    /// The run was cancelled: the figures are those of the first `games`.
    pub cancelled: bool,
    pub this: Summary,
    pub other: Option<Summary>,
    /// The Editor's win rate, this game minus the other, paired on seeds.
    pub difference: Option<Interval>,
    pub cards: Vec<CardRow>,
    /// The chart (win rates, game length), SVG text.
    pub chart: Option<String>,
}

#[derive(Serialize, Clone, Debug)]
pub struct Summary {
    pub games: u64,
    pub editor_wins: u64,
    pub nixon_wins: u64,
    pub editor_rate: Interval,
    pub mean_rounds: f64,
    pub causes: std::collections::BTreeMap<String, u64>,
}

pub use crate::lab::report::CardRow;

fn summary(t: &Tally) -> Summary {
    Summary {
        games: t.games,
        editor_wins: t.editor_wins,
        nixon_wins: t.nixon_wins,
        editor_rate: wilson(t.editor_wins, t.games, Z95),
        mean_rounds: t.mean_rounds(),
        causes: t.win_causes.clone(),
    }
}

/// The result in the page's terms.
pub fn result(
    res: &SimResult,
    req: &LabRequest,
    label: &str,
    against: Option<&str>,
    cancelled: bool,
) -> LabResult {
    let t = &res.tally;
    let cards = crate::lab::report::card_rows(t, res.against.as_ref());
    LabResult {
        label: label.to_string(),
        against: against.map(str::to_string),
        editor: req.editor.clone(),
        nixon: req.nixon.clone(),
        seed: req.seed,
        asked: req.games,
        games: t.games,
        cancelled,
        this: summary(t),
        other: res.against.as_ref().map(summary),
        difference: res.paired.map(|p| p.difference()),
        cards,
        chart: (t.games > 0)
            .then(|| crate::lab::chart::svg(res, label, against.unwrap_or("")).ok())
            .flatten(),
    }
}

/// Checks an agent name and its budget.
fn agent(name: &str, side: &str) -> Result<AgentSpec, ApiError> {
    let spec = AgentSpec::parse(name).map_err(|e| ApiError::bad_request(format!("{side}: {e}")))?;
    match spec.budget() {
        Some(Budget::Iterations(n)) if n as u64 > MAX_ITERATIONS as u64 => {
            Err(ApiError::bad_request(format!(
                "{side}: ismcts:{n} — the lab allows at most {MAX_ITERATIONS} iterations per decision"
            )))
        }
        Some(Budget::Millis(_)) => Err(ApiError::bad_request(format!(
            "{side}: a time budget makes a run differ each time; give ismcts:N iterations"
        ))),
        // The lab already plays its games on every core.
        _ if matches!(spec, AgentSpec::Ismcts(s) if s.threads > 1) => Err(ApiError::bad_request(
            format!("{side}: the lab plays its games on every core already; drop :threads=N"),
        )),
        _ => Ok(spec),
    }
}

/// A request's games, checked and loaded.
pub struct Prepared {
    pub cfg: SimConfig,
    pub rules: Rules,
    pub label: String,
    /// The game compared against, and its label.
    pub against: Option<(Rules, String)>,
}

/// The games of a request, checked.
pub fn prepare(st: &AppState, req: &LabRequest) -> Result<Prepared, ApiError> {
    let editor = agent(&req.editor, "editor")?;
    let nixon = agent(&req.nixon, "nixon")?;
    let searching = matches!(editor, AgentSpec::Ismcts(_)) || matches!(nixon, AgentSpec::Ismcts(_));
    let max = if searching {
        MAX_SEARCH_GAMES
    } else {
        MAX_GAMES
    };
    if req.games == 0 || req.games > max {
        return Err(ApiError::bad_request(format!(
            "games: {} — a run from the page plays 1 to {max} games{} (use `watergate simulate` for more)",
            req.games,
            if searching { " with a searching agent" } else { "" }
        )));
    }
    let files = Files::listed(&st.source);
    let (base_ds, _) = st
        .source
        .load()
        .map_err(|d| ApiError::unprocessable(super::scenarios::problems(&d)))?;
    let base_label = st.source.label();
    let load = |ds: &crate::data::DataSet| {
        crate::data::load(ds).map_err(|d| ApiError::unprocessable(super::scenarios::problems(&d)))
    };
    let with_variant = |name: &str| -> Result<Rules, ApiError> {
        let v = files.variant(name)?;
        load(
            &v.apply(&base_ds)
                .map_err(|d| ApiError::unprocessable(super::scenarios::problems(&d)))?,
        )
    };
    let (rules, label) = match &req.variant {
        None => (load(&base_ds)?, base_label.clone()),
        Some(v) => (with_variant(v)?, format!("{base_label} + {v}")),
    };
    let against = match req.against.as_deref() {
        None => None,
        Some("shipped") => Some((
            crate::data::load(&crate::data::DataSet::embedded())
                .map_err(|d| ApiError::unprocessable(super::scenarios::problems(&d)))?,
            "the shipped game".to_string(),
        )),
        Some("base") => {
            if req.variant.is_none() {
                return Err(ApiError::bad_request(
                    "against `base`: the game has no variant, so it would be compared with itself",
                ));
            }
            Some((load(&base_ds)?, base_label.clone()))
        }
        Some(v) => Some((with_variant(v)?, format!("{base_label} + {v}"))),
    };
    if let Some((other, name)) = &against {
        if other.fingerprint == rules.fingerprint {
            return Err(ApiError::bad_request(format!(
                "`{label}` and `{name}` are the same game (same data): there is nothing to compare"
            )));
        }
    }
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 4);
    let cfg = SimConfig {
        games: req.games,
        seed: req.seed,
        first_game: 0,
        editor,
        nixon,
        threads,
    };
    Ok(Prepared {
        cfg,
        rules,
        label,
        against,
    })
}

/// Plays the job's games (on this thread and the runner's), then stores
/// the result.
pub fn run(job: &Job, req: &LabRequest, p: Prepared) {
    let Prepared {
        cfg,
        rules,
        label,
        against,
    } = p;
    let progress = |n: u64| job.done.store(n, Ordering::Relaxed);
    let out = crate::lab::sim::simulate_compare_until(
        &rules,
        against.as_ref().map(|(r, _)| r),
        &cfg,
        &progress,
        &job.stop,
    );
    let stored = match out {
        Ok(res) => {
            job.done.store(res.tally.games, Ordering::Relaxed);
            Ok(result(
                &res,
                req,
                &label,
                against.as_ref().map(|(_, l)| l.as_str()),
                res.tally.games < cfg.games,
            ))
        }
        Err(crate::lab::sim::SimFailure::Threads(t)) => Err(t.to_string()),
        Err(crate::lab::sim::SimFailure::Game(f)) => Err(format!(
            "game {} (game seed {}) failed{}: {}",
            f.index,
            f.seed,
            if f.against {
                " in the game compared against"
            } else {
                ""
            },
            f.error
        )),
    };
    *job.result.lock().unwrap_or_else(|p| p.into_inner()) = Some(stored);
}

/// Counts the runs in progress, across requests.
pub static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// A run started: its id (for `/api/lab/{id}/events`) and its games.
#[derive(Serialize)]
pub struct Started {
    pub id: String,
    pub total: u64,
}

async fn start(
    State(st): State<AppState>,
    JsonBody(req): JsonBody<LabRequest>,
) -> Result<Json<Started>, ApiError> {
    let st2 = st.clone();
    let req2 = req.clone();
    let prepared = tokio::task::spawn_blocking(move || prepare(&st2, &req2))
        .await
        .map_err(|e| ApiError::internal(format!("the run did not start: {e}")))??;
    launch(&st, req, prepared).map(Json)
}

/// Starts a prepared run on a thread of its own, unless [`MAX_RUNNING`]
/// runs (lab runs and the workbench's comparisons together) are playing
/// or [`MAX_JOBS`] are remembered.
pub fn launch(st: &AppState, req: LabRequest, prepared: Prepared) -> Result<Started, ApiError> {
    if RUNNING
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < MAX_RUNNING).then_some(n + 1)
        })
        .is_err()
    {
        return Err(ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{MAX_RUNNING} runs are in progress (lab runs and workbench comparisons), the most this server plays at once; wait for one to finish or cancel it"
            ),
        ));
    }
    let job = Job::new(prepared.cfg.games);
    let (id, job) = match st.pages.lab.insert(job) {
        Ok(x) => x,
        Err(max) => {
            RUNNING.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                format!("{max} runs are remembered, the most this server keeps; try again later"),
            ));
        }
    };
    let total = job.total;
    let watched = Arc::clone(&job);
    std::thread::spawn(move || watch(&watched, UNWATCHED));
    std::thread::spawn(move || {
        run(&job, &req, prepared);
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    });
    Ok(Started { id, total })
}

/// A run's state: progress, then its result or failure.
#[derive(Serialize)]
struct JobView {
    done: u64,
    total: u64,
    finished: bool,
    /// Cancel was asked (or nobody watched): the games under way finish.
    cancelling: bool,
    /// Cancelled because no page watched it for [`UNWATCHED`].
    unwatched: bool,
    result: Option<LabResult>,
    error: Option<String>,
}

fn view(job: &Job) -> JobView {
    let r = job.result.lock().unwrap_or_else(|p| p.into_inner());
    JobView {
        done: job.done.load(Ordering::Relaxed),
        total: job.total,
        finished: r.is_some(),
        cancelling: r.is_none() && job.stop.load(Ordering::SeqCst),
        unwatched: job.unwatched.load(Ordering::SeqCst),
        result: r.as_ref().and_then(|x| x.as_ref().ok().cloned()),
        error: r.as_ref().and_then(|x| x.as_ref().err().cloned()),
    }
}

fn job(st: &AppState, id: &str) -> Result<Arc<Job>, ApiError> {
    st.pages
        .lab
        .get(id)
        .ok_or_else(|| ApiError::not_found("no such lab run (it may have expired)"))
}

async fn show(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<JobView>, ApiError> {
    let j = job(&st, &id)?;
    j.touch();
    Ok(Json(view(&j)))
}

/// A page still shows the run (sent every few seconds while it plays).
async fn keep(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<JobView>, ApiError> {
    let j = job(&st, &id)?;
    j.touch();
    Ok(Json(view(&j)))
}

async fn cancel(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<JobView>, ApiError> {
    let j = job(&st, &id)?;
    j.stop.store(true, Ordering::SeqCst);
    Ok(Json(view(&j)))
}

/// `progress` events while the run plays (at most every 200 ms, and only
/// when the count moved), then one `result` event, and the stream ends.
/// While the stream is open the run is watched; a comment every 2 s finds
/// out a listener gone (its connection closed), whose stream then ends.
async fn events(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let j = job(&st, &id)?;
    let stream =
        futures_util::stream::unfold((j, None::<u64>, false), |(j, last, ended)| async move {
            if ended {
                return None;
            }
            loop {
                j.touch();
                let v = view(&j);
                if v.finished {
                    let e = Event::default().event("result").json_data(&v).ok()?;
                    return Some((Ok(e), (j, last, true)));
                }
                if last != Some(v.done) {
                    let e = Event::default()
                        .event("progress")
                        .json_data(serde_json::json!({ "done": v.done, "total": v.total }))
                        .ok()?;
                    return Some((Ok(e), (j, Some(v.done), false)));
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(2))))
}

#[derive(Serialize)]
struct Variants {
    variants: Vec<String>,
    max_games: u64,
    max_search_games: u64,
    /// The most ISMCTS iterations a lab agent may use per decision.
    max_iterations: u32,
    /// Set when the data folder has no scenarios/: the variants listed are
    /// the shipped ones.
    scenarios_note: Option<String>,
}

async fn variants(State(st): State<AppState>) -> Json<Variants> {
    Json(Variants {
        variants: Files::listed(&st.source).variants(),
        scenarios_note: super::scenarios::shipped_note(&st.source),
        max_games: MAX_GAMES,
        max_search_games: MAX_SEARCH_GAMES,
        max_iterations: MAX_ITERATIONS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(total: u64) -> Job {
        Job::new(total)
    }

    fn cfg(games: u64) -> SimConfig {
        SimConfig {
            games,
            seed: 3,
            first_game: 0,
            editor: AgentSpec::Random,
            nixon: AgentSpec::Random,
            threads: 2,
        }
    }

    fn prepared(games: u64) -> Prepared {
        Prepared {
            cfg: cfg(games),
            rules: crate::data::shipped(),
            label: "shipped".into(),
            against: None,
        }
    }

    fn req(games: u64) -> LabRequest {
        LabRequest {
            games,
            seed: 3,
            editor: "random".into(),
            nixon: "random".into(),
            variant: None,
            against: None,
        }
    }

    #[test]
    fn a_run_gives_the_same_tally_as_simulate_with_a_chart_and_a_card_table() {
        let r = crate::data::shipped();
        let j = job(40);
        run(&j, &req(40), prepared(40));
        let v = view(&j);
        let res = v.result.expect("a result");
        let t = crate::lab::sim::simulate(&r, &cfg(40), &|_| {}).unwrap();
        assert_eq!(res.games, 40);
        assert_eq!(res.this.editor_wins, t.editor_wins);
        assert!(!res.cancelled);
        assert!(res.chart.unwrap().starts_with("<svg"));
        assert!(!res.cards.is_empty());
        assert_eq!(v.done, 40);
    }

    #[test]
    fn a_cancelled_run_reports_its_first_games_only() {
        let j = job(1000);
        j.stop.store(true, Ordering::SeqCst);
        run(&j, &req(1000), prepared(1000));
        let res = view(&j).result.unwrap();
        assert!(res.cancelled);
        assert!(res.games < 1000);
    }

    /// A run nobody touches is stopped once `after` has passed (its result
    /// then covers the first games, marked cancelled); one a page keeps
    /// touching plays to its end.
    #[test]
    fn a_run_nobody_watches_is_cancelled_and_a_watched_one_is_not() {
        let after = Duration::from_millis(300);
        let j = Arc::new(job(1_000_000));
        let w = Arc::clone(&j);
        let watcher = std::thread::spawn(move || watch(&w, after));
        run(&j, &req(1_000_000), prepared(1_000_000));
        watcher.join().unwrap();
        let v = view(&j);
        assert!(v.unwatched && !v.cancelling && v.finished);
        let res = v.result.unwrap();
        assert!(res.cancelled && res.games < 1_000_000, "{}", res.games);

        let j = Arc::new(job(40));
        let w = Arc::clone(&j);
        let watcher = std::thread::spawn(move || watch(&w, after));
        let toucher = {
            let j = Arc::clone(&j);
            std::thread::spawn(move || {
                while !j.finished() {
                    j.touch();
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
        };
        // Slower than `after`: only the touches keep it going.
        std::thread::sleep(after * 2);
        run(&j, &req(40), prepared(40));
        watcher.join().unwrap();
        toucher.join().unwrap();
        let v = view(&j);
        assert!(!v.unwatched);
        assert_eq!(v.result.unwrap().games, 40);
    }

    #[test]
    fn agents_are_checked_and_bounded() {
        assert!(agent("random", "editor").is_ok());
        assert_eq!(
            agent("alphazero", "editor").unwrap_err().status.as_u16(),
            400
        );
        assert!(agent("ismcts:100000", "nixon")
            .unwrap_err()
            .message
            .contains("at most"));
        assert!(agent("ismcts:200ms", "nixon").is_err());
    }
}
