//! Play: games in the browser, against an agent or hotseat.
//!
//! Routes (all JSON; a seat names itself with its secret in the
//! `X-Seat-Token` header):
//!
//! | route | what |
//! |---|---|
//! | `POST /api/games` `{mode, ai?, seed?}` | a new game; answers its id and the human seats' tokens |
//! | `GET /api/games/{id}?since=N&after=S` | the seat's view (narration from line N; with `after`, the moves since step S) |
//! | `POST /api/games/{id}/choose` `{option}` or `{text}`, `step?`, `moves?` | the seat's choice; then the agents play (`moves: true`: the table after each choice since `step`) |
//! | `POST /api/games/{id}/undo` | back to the seat's previous decision |
//! | `GET /api/games/{id}/scenario` | the position as a scenario file (hotseat, or once the game is over) |
//! | `GET /api/games/{id}/log` | the game log (once the game is over) |
//! | `DELETE /api/games/{id}` | the game is forgotten |
//!
//! A request whose work is short runs on the async worker that took it: a
//! look at the table, an undo, or a choice against an agent that answers in
//! microseconds. Work that may take long — a searching agent's moves — and
//! any request for a game another request holds run on the blocking pool
//! (`spawn_blocking`), so the async workers keep serving other games. The
//! hop to the pool costs two thread switches a request, which under load
//! was the largest part of a short request's time (BENCHMARKS.md).

pub mod seat;
pub mod session;
pub mod targets;

use super::error::{ApiError, JsonBody, OptionalJson};
use super::AppState;
use crate::game::model::Side;
use crate::players::agent::AgentSpec;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
pub use session::{expire_loop, Limits, Sessions};
use session::{Answer, Full, Mode, Refusal, Session};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/games", post(create))
        .route("/games/{id}", get(view).delete(end))
        .route("/games/{id}/choose", post(choose))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/scenario", get(scenario))
        .route("/games/{id}/log", get(game_log))
}

/// A random 128-bit secret in hex: session ids and seat tokens.
pub(crate) fn secret() -> String {
    // Without the operating system's randomness no secret can be made;
    // that is no state to serve games in.
    crate::app::secret::token().expect("the operating system's random source")
}

/// The most a Play opponent may think about one decision: 20,000
/// iterations (twice the default opponent's; some 20 ms a decision), two
/// threads (the machine's cores, which other games share), and two seconds
/// of a time budget. A bigger request would hold a game for minutes, or ask
/// for memory by the gigabyte before it exists (issue 41).
pub const MAX_ITERATIONS: u32 = 20_000;
pub const MAX_THREADS: u8 = 2;
pub const MAX_MILLIS: u32 = 2_000;

/// An opponent named by a client, parsed and bounded.
fn opponent(name: &str) -> Result<AgentSpec, ApiError> {
    use crate::players::agent::Budget;
    let max_iterations = MAX_ITERATIONS;
    let spec = AgentSpec::parse(name).map_err(ApiError::bad_request)?;
    let threads = match &spec {
        AgentSpec::Ismcts(s) => s.threads,
        _ => 1,
    };
    match spec.budget() {
        Some(Budget::Iterations(n)) if n > max_iterations => Err(ApiError::bad_request(format!(
            "ismcts:{n}: an opponent thinks at most {max_iterations} iterations per decision here"
        ))),
        Some(Budget::Millis(ms)) if ms > MAX_MILLIS => Err(ApiError::bad_request(format!(
            "ismcts:{ms}ms: an opponent thinks at most {MAX_MILLIS} ms per decision here"
        ))),
        _ if threads > MAX_THREADS => Err(ApiError::bad_request(format!(
            "threads={threads}: an opponent thinks on at most {MAX_THREADS} threads here"
        ))),
        _ => Ok(spec),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// `hotseat`, `editor` or `nixon` (the side the human plays).
    mode: String,
    /// The agent of the other side [default: heuristic].
    ai: Option<String>,
    /// The deal [default: random]: a decimal string (or a number).
    #[serde(default, with = "super::numbers::seed_opt")]
    seed: Option<u64>,
    /// Or a saved position to play on from (a scenario file's text, as
    /// `Save position` downloads it), instead of a new deal.
    position: Option<Upload>,
}

/// A scenario file the player opened.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Upload {
    text: String,
    /// Its file name, for messages.
    name: Option<String>,
}

/// The rules and the position of an uploaded scenario, read as the
/// Puzzles page reads one (`scenarios::Files`: whatever it names must lie
/// in the data folder), its opening choices played.
fn position_of(
    st: &AppState,
    up: Upload,
) -> Result<
    (
        std::sync::Arc<crate::game::rules::Rules>,
        crate::game::state::State,
        String,
    ),
    ApiError,
> {
    use super::scenarios::{problems, Files, PUZZLES};
    let files = Files::of(&st.source);
    let display = up.name.unwrap_or_else(|| "the saved position".into());
    let scn = files.scenario(PUZZLES, &display, &up.text)?;
    let rules = std::sync::Arc::new(files.rules(&scn, &st.source)?);
    let mut s = scn
        .start(&rules)
        .map_err(|d| ApiError::unprocessable(problems(&d)))?;
    scn.play(&rules, &mut s)
        .map_err(|d| ApiError::unprocessable(problems(&d)))?;
    if let Some(o) = s.outcome() {
        return Err(ApiError::unprocessable(format!(
            "{display}: the game is already over there ({} won); open a position of a game still under way",
            o.winner
        )));
    }
    let name = if scn.def.name.is_empty() {
        display
    } else {
        scn.def.name.clone()
    };
    Ok((rules, s, name))
}

#[derive(serde::Serialize)]
struct Created {
    game: String,
    mode: String,
    /// Only when the request chose it: a seed drawn here is a secret until
    /// the game is over (issue 40).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::numbers::seed_opt::serialize"
    )]
    seed: Option<u64>,
    /// Tokens of the human seats.
    seats: seat::PerSide<Option<String>>,
}

/// What a request does to its game: only looks (or undoes), or lets the
/// agents play on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Work {
    Look,
    Play,
}

/// Runs `f` on the game: here when the work is short and the game free,
/// on the blocking pool otherwise (the module's doc).
async fn with_game<T: Send + 'static>(
    st: &AppState,
    id: &str,
    work: Work,
    f: impl FnOnce(&mut Session) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let game = st.sessions.get(id).ok_or_else(|| {
        ApiError::not_found(format!("no game `{id}`: it ended, expired, or never was"))
    })?;
    // Never wait for the lock here: a game held by another request may be
    // held for as long as a search thinks.
    {
        let free = match game.try_lock() {
            Ok(g) => Some(g),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        };
        if let Some(mut g) = free {
            if work == Work::Look || !g.mode.thinks() {
                return f(&mut g);
            }
        }
    }
    tokio::task::spawn_blocking(move || {
        let mut g = game.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut g)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the game's task failed: {e}")))?
}

/// A seat's view as a JSON answer, written into one buffer sized for it
/// (a view is about 12 KB: axum's `Json` starts at 128 bytes and copies
/// its way up), while the game is still at hand.
fn view_json(view: &seat::SeatView) -> Response {
    let mut body = Vec::with_capacity(16 * 1024);
    match serde_json::to_writer(&mut body, view) {
        Ok(()) => (
            [(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            )],
            body,
        )
            .into_response(),
        Err(e) => ApiError::internal(format!("the view could not be written: {e}")).into_response(),
    }
}

/// The seat a request's token opens.
fn seat_of(s: &Session, headers: &HeaderMap) -> Result<Side, ApiError> {
    let token = headers
        .get("x-seat-token")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ApiError::forbidden("name your seat: the X-Seat-Token header is missing"))?;
    s.seat(token)
        .ok_or_else(|| ApiError::forbidden("that seat token opens no seat of this game"))
}

async fn create(
    State(st): State<AppState>,
    JsonBody(req): JsonBody<NewGame>,
) -> Result<Response, ApiError> {
    let mode = match req.mode.to_ascii_lowercase().as_str() {
        "hotseat" | "both" => {
            if req.ai.is_some() {
                return Err(ApiError::bad_request(
                    "a hotseat game has no agent: leave `ai` out",
                ));
            }
            Mode::Hotseat
        }
        other => {
            let human = Side::parse(other).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "mode `{}`: expected hotseat, editor or nixon",
                    req.mode
                ))
            })?;
            let ai = match req.ai.as_deref() {
                None => AgentSpec::default_opponent(),
                Some(name) => opponent(name)?,
            };
            Mode::Against { human, ai }
        }
    };
    if req.position.is_some() && req.seed.is_some() {
        return Err(ApiError::bad_request(
            "a saved position carries its own deal: leave `seed` out",
        ));
    }
    let chosen = req.seed.is_some();
    let seed = match req.seed {
        Some(seed) => seed,
        None => crate::app::secret::random_seed().map_err(|e| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("no random seed from the operating system: {e}"),
            )
        })?,
    };
    let position = match req.position {
        None => None,
        Some(up) => {
            let st2 = st.clone();
            Some(
                tokio::task::spawn_blocking(move || position_of(&st2, up))
                    .await
                    .map_err(|e| {
                        ApiError::internal(format!("the position could not be read: {e}"))
                    })??,
            )
        }
    };
    let rules = st.current_rules();
    let mode_thinks = mode.thinks();
    let mode_name = match &mode {
        Mode::Hotseat => "hotseat".to_string(),
        Mode::Against { human, ai } => format!("{} against {ai}", human.key()),
    };
    // The deal, and an agent that moves first: off the async workers when
    // that agent searches.
    let start = move || {
        let mut s = match position {
            None => Session::new(rules, seed, chosen, mode),
            Some((rules, state, name)) => Session::from_position(rules, state, &name, seed, mode),
        };
        s.run_agents().map(|()| s)
    };
    let session = if mode_thinks {
        tokio::task::spawn_blocking(start)
            .await
            .map_err(|e| ApiError::internal(format!("the new game's task failed: {e}")))?
    } else {
        start()
    }
    .map_err(refusal)?;
    let seats = seat::PerSide {
        editor: session.token(Side::Editor).map(str::to_string),
        nixon: session.token(Side::Nixon).map(str::to_string),
    };
    let shown = session.shown_seed();
    let game = st.sessions.insert(session).map_err(|Full::Full(n)| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the studio is full: {n} games are open and none is finished; finish or close one (they also expire when idle)"),
        )
    })?;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            game,
            mode: mode_name,
            seed: shown,
            seats,
        }),
    )
        .into_response())
}

#[derive(Deserialize)]
struct Since {
    since: Option<usize>,
    /// The moves after this step are wanted too (`SeatView::moves`).
    after: Option<u64>,
}

async fn view(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<Since>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let gid = id.clone();
    with_game(&st, &id, Work::Look, move |s| {
        let side = seat_of(s, &headers)?;
        Ok(view_json(&seat::seat_view(
            &gid,
            s,
            side,
            q.since.unwrap_or(0),
            q.after,
        )))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChooseReq {
    /// The option's index in the decision's list.
    option: Option<usize>,
    /// Or the choice in notation.
    text: Option<String>,
    /// The step the choice was made at (the view's `step`): a choice made
    /// on a position that is gone is refused.
    step: Option<u64>,
    /// Narration wanted from this line on, in the answer.
    since: Option<usize>,
    /// The moves since `step` wanted in the answer (`SeatView::moves`):
    /// this choice's and what followed it.
    #[serde(default)]
    moves: bool,
}

fn refusal(r: Refusal) -> ApiError {
    match r {
        Refusal::Refused(m) => ApiError::unprocessable(m),
        Refusal::Broken(m) => ApiError::internal(m),
    }
}

async fn choose(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<ChooseReq>,
) -> Result<Response, ApiError> {
    let answer = match (req.option, req.text) {
        (Some(i), None) => Answer::Index(i),
        (None, Some(t)) => Answer::Text(t),
        _ => {
            return Err(ApiError::bad_request(
                "send either `option` (an index) or `text` (notation)",
            ))
        }
    };
    let gid = id.clone();
    with_game(&st, &id, Work::Play, move |s| {
        let side = seat_of(s, &headers)?;
        if let Some(step) = req.step {
            if step != s.step {
                return Err(ApiError::conflict(format!(
                    "the game has moved on (step {step} is gone, it is now step {}): look again",
                    s.step
                )));
            }
        }
        s.choose(side, &answer).map_err(refusal)?;
        let after = req.moves.then_some(req.step.unwrap_or(0));
        Ok(view_json(&seat::seat_view(
            &gid,
            s,
            side,
            req.since.unwrap_or(0),
            after,
        )))
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct UndoReq {
    since: Option<usize>,
}

async fn undo(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    // The body is optional: empty, or `{ "since": N }`.
    OptionalJson(req): OptionalJson<UndoReq>,
) -> Result<Response, ApiError> {
    let since = req.since.unwrap_or(0);
    let gid = id.clone();
    with_game(&st, &id, Work::Look, move |s| {
        let side = seat_of(s, &headers)?;
        s.undo(side)
            .map_err(|why| ApiError::conflict(why.to_string()))?;
        Ok(view_json(&seat::seat_view(&gid, s, side, since, None)))
    })
    .await
}

fn download(text: String, name: &str) -> Response {
    (
        [
            (
                axum::http::header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                axum::http::header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response()
}

async fn scenario(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let source = st.source.clone();
    with_game(&st, &id, Work::Look, move |s| {
        seat_of(s, &headers)?;
        if !s.can_save() {
            return Err(ApiError::forbidden(
                "a saved position holds everything, the opponent's hand and the face-down tokens included: against an agent it can be saved once the game is over",
            ));
        }
        let n = s.game.record.log.choices.len();
        // The seed only where it may be shown: a hotseat game's file holds
        // the position, not the key to every deal still to come.
        let (about, file) = match s.shown_seed() {
            Some(seed) => (
                format!("saved by the studio after {n} choices (seed {seed})"),
                format!("watergate-{seed}-{n}.ron"),
            ),
            None => (
                format!("saved by the studio after {n} choices"),
                format!("watergate-{n}.ron"),
            ),
        };
        let mut def = crate::formats::scenario::save::scenario_of(
            &s.rules,
            &s.game.state,
            "saved game",
            &about,
        );
        // The download keeps the data and variant the server plays (a
        // studio game starts from no scenario: nothing is left out).
        crate::formats::scenario::save::RulesOrigin::of(&source, None).stamp(&mut def, None);
        Ok(download(crate::formats::scenario::save::to_text(&def), &file))
    })
    .await
}

async fn game_log(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    with_game(&st, &id, Work::Look, move |s| {
        seat_of(s, &headers)?;
        // The log holds the seed: only once the game is over.
        let over = s.game.state.outcome().is_some();
        let file = match s.shown_seed() {
            Some(seed) if over => format!("watergate-{seed}.log.ron"),
            // Played on from a saved position: no seed to name.
            None if over && s.is_from_position() => "watergate-position.log.ron".to_string(),
            _ => return Err(ApiError::forbidden(
                "the log names every choice, hidden ones included: it can be downloaded once the game is over",
            )),
        };
        Ok(download(s.game.record.log.to_text(), &file))
    })
    .await
}

async fn end(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    with_game(&st, &id, Work::Look, move |s| {
        seat_of(s, &headers).map(|_| ())
    })
    .await?;
    st.sessions.remove(&id);
    Ok(StatusCode::NO_CONTENT)
}
