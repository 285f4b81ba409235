//! The studio: `watergate serve`, a local web application on the engine.
//!
//! One axum router over one shared [`AppState`]. Each area of the studio
//! (play, replay, puzzles, cards, live data, lab, workbench) is its own module exposing
//! `routes()`; [`router`] composes them, so adding an area is one line there.
//! The pages themselves are plain HTML, CSS and JavaScript modules under
//! `assets/studio/`, embedded in the binary (`assets.rs`).
//!
//! Every request passes [`guard`] first: the Host header must name this
//! server on a loopback address (or the address it was bound to; bound to
//! every interface, any IP address) and its port, and a cross-site Origin
//! is refused, so a page on another site cannot reach the studio through
//! DNS rebinding or a form post. Bodies are
//! bounded ([`MAX_BODY`]); every refusal is a JSON `{ "error": … }` with a
//! 4xx status (`error.rs`).

mod assets;
pub mod cards;
pub mod docs;
pub mod error;
mod game;
pub mod lab;
pub mod live;
pub mod numbers;
pub mod pages;
pub mod paths;
pub mod play;
pub mod puzzles;
pub mod replay;
pub mod scenarios;
pub mod store;
pub mod table;
pub mod workbench;

use crate::data::GameSource;
use crate::diag::Diagnostic;
use crate::game::rules::Rules;
use axum::extract::{Request, State};
use axum::http::header::{HOST, ORIGIN};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use error::ApiError;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, RwLock};

/// The largest request body accepted, in bytes: choices, notation and
/// settings are small; scenario and log uploads of other areas fit too.
pub const MAX_BODY: usize = 256 * 1024;

/// A problem in the game data as the page shows it: where, what, and the
/// line of the file it points at.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Problem {
    pub path: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// The offending line of the file, when it can be read.
    pub source_line: Option<String>,
}

impl Problem {
    pub fn of(d: &Diagnostic, source_line: Option<String>) -> Problem {
        Problem {
            path: d.path.clone(),
            line: d.line,
            col: d.col,
            message: d.message.clone(),
            source_line,
        }
    }
}

/// What every handler shares. Cheap to clone (everything is behind `Arc`).
#[derive(Clone)]
pub struct AppState {
    /// Where the game comes from (`--data`, `--variant`).
    pub source: Arc<GameSource>,
    /// The rules new games are dealt with. The live-data watcher replaces
    /// them when the files change and still load; a running game keeps the
    /// `Arc` it started with.
    pub rules: Arc<RwLock<Arc<Rules>>>,
    /// Problems in the data as last read (empty when it loads cleanly).
    pub problems: Arc<RwLock<Vec<Problem>>>,
    /// The games being played.
    pub sessions: Arc<play::Sessions>,
    /// What the Replay, Puzzles, Cards, Live-data and Lab pages keep.
    pub pages: Arc<pages::Pages>,
    /// The workbench's history of edits and its snapshots.
    pub workbench: Arc<workbench::Workbench>,
    /// Whether the `--data` folder has loaded since the server started:
    /// until it does, new games use the shipped game, standing in
    /// (`ServeConfig::stand_in`), and the live status says so.
    pub folder_loaded: Arc<std::sync::atomic::AtomicBool>,
    /// The Host values the studio answers to.
    hosts: Arc<HostPolicy>,
}

impl AppState {
    /// State for a server bound to `addr`, dealing games with `rules`.
    pub fn new(source: GameSource, rules: Rules, addr: SocketAddr, limits: play::Limits) -> Self {
        AppState {
            pages: Arc::new(pages::Pages::new(&source, &rules)),
            source: Arc::new(source),
            rules: Arc::new(RwLock::new(Arc::new(rules))),
            problems: Arc::new(RwLock::new(Vec::new())),
            sessions: Arc::new(play::Sessions::new(limits)),
            workbench: Arc::new(workbench::Workbench::default()),
            folder_loaded: Arc::new(std::sync::atomic::AtomicBool::new(true)),
            hosts: Arc::new(HostPolicy::for_address(addr)),
        }
    }

    /// The rules a new game starts with.
    pub fn current_rules(&self) -> Arc<Rules> {
        // A poisoned lock still holds the last good rules.
        match self.rules.read() {
            Ok(r) => Arc::clone(&r),
            Err(p) => Arc::clone(&p.into_inner()),
        }
    }
}

/// The Host values this server answers to (`host:port`, this port only):
/// the loopback names; the bound address itself when it is not a loopback
/// one; and, bound to every interface (`--host 0.0.0.0` or `::`), any IP
/// address written as such, since the server cannot know by which of the
/// machine's addresses it is reached. An address written as such cannot be
/// rebound by DNS; a host name other than `localhost` is always refused.
#[derive(Debug)]
struct HostPolicy {
    port: u16,
    names: Vec<String>,
    any_address: bool,
    /// `host:port` of the URL the server prints: its bound address, or
    /// 127.0.0.1 when bound to every interface.
    home: String,
}

impl HostPolicy {
    fn for_address(addr: SocketAddr) -> HostPolicy {
        let port = addr.port();
        let mut names = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        let ip = addr.ip();
        let home = if ip.is_unspecified() {
            names[0].clone()
        } else {
            addr.to_string()
        };
        if !ip.is_loopback() && !ip.is_unspecified() {
            names.push(home.clone());
        }
        HostPolicy {
            port,
            names,
            any_address: ip.is_unspecified(),
            home,
        }
    }

    /// Whether a Host value (`host:port`) names this server.
    fn accepts(&self, host: &str) -> bool {
        self.names.iter().any(|n| n.eq_ignore_ascii_case(host))
            || (self.any_address
                && host
                    .parse::<SocketAddr>()
                    .is_ok_and(|a| a.port() == self.port))
    }

    /// Where to open the studio, for a refusal.
    fn advice(&self) -> String {
        if self.any_address {
            format!(
                "open the studio at http://{}/ or at this machine's IP address and port {}",
                self.home, self.port
            )
        } else {
            format!("open the studio at http://{}/", self.home)
        }
    }
}

/// The whole application: the API areas, the embedded pages, the guard.
pub fn router(state: AppState) -> Router {
    // One line per area of the studio.
    let api = Router::new()
        .merge(game::routes())
        .merge(play::routes())
        .merge(pages::routes())
        .merge(workbench::routes());
    Router::new()
        .nest("/api", api.fallback(unknown_api))
        .merge(assets::routes())
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        // Outermost: every refusal, axum's own included, is JSON.
        .layer(middleware::from_fn(error::json_errors))
        .with_state(state)
}

async fn unknown_api() -> ApiError {
    ApiError::not_found("no such API route")
}

/// Refuses requests not meant for this server: a Host header other than
/// this server's (DNS rebinding: a foreign name resolving to 127.0.0.1), an
/// Origin of another site, and bodies announced larger than [`MAX_BODY`].
async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let host = req.headers().get(HOST).and_then(|h| h.to_str().ok());
    // HTTP/1.1 requires Host; the URI carries it for absolute-form requests.
    let host = host
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.to_string()));
    match host {
        Some(h) if state.hosts.accepts(&h) => {}
        Some(h) => {
            return ApiError::forbidden(format!(
                "the Host header `{h}` is not this server; {}",
                state.hosts.advice()
            ))
            .into_response()
        }
        None => return ApiError::forbidden("a request must name its Host").into_response(),
    }
    if let Some(origin) = req.headers().get(ORIGIN) {
        let ok = origin.to_str().ok().is_some_and(|o| {
            o.strip_prefix("http://")
                .is_some_and(|rest| state.hosts.accepts(rest))
        });
        if !ok {
            return ApiError::forbidden(format!(
                "requests from the origin `{}` are refused: only the studio's own pages may call it",
                origin.to_str().unwrap_or("(not text)")
            ))
            .into_response();
        }
    }
    let announced = req
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        return ApiError::too_large().into_response();
    }
    next.run(req).await
}

/// Connections the kernel queues for the server before it accepts them.
/// The standard library's (and tokio's) 128 was too few for a burst of new
/// clients: 200 opening at once lost their first SYN and waited a second
/// for the retry (the load test, BENCHMARKS.md). The kernel caps it at
/// `net.core.somaxconn`.
const ACCEPT_BACKLOG: u32 = 1024;

/// A listening socket on `addr`, with [`ACCEPT_BACKLOG`].
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    // As `TcpListener::bind` does: a restarted server may take its port
    // back while old connections linger in TIME_WAIT.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_BACKLOG)
}

/// How `watergate serve` was asked to run.
pub struct ServeConfig {
    pub source: GameSource,
    pub host: IpAddr,
    /// 0: any free port.
    pub port: u16,
    pub limits: play::Limits,
    /// The rules given are the shipped game's, standing in for a `--data`
    /// folder that does not load yet (`watergate serve` says when).
    pub stand_in: bool,
}

/// Binds, prints the URL on `out` (first line, flushed: tests read it) and
/// serves until the process ends.
pub fn serve(cfg: ServeConfig, rules: Rules, out: &mut dyn std::io::Write) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = listen(SocketAddr::new(cfg.host, cfg.port))
            .map_err(|e| format!("cannot listen on {}:{}: {e}", cfg.host, cfg.port))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot read the bound address: {e}"))?;
        let state = AppState::new(cfg.source.clone(), rules, addr, cfg.limits);
        state
            .folder_loaded
            .store(!cfg.stand_in, std::sync::atomic::Ordering::Relaxed);
        let url = format!("http://{}/", state.hosts.home);
        let playing = if cfg.stand_in {
            format!("the shipped game until {} loads", cfg.source.label())
        } else {
            cfg.source.label()
        };
        // A reader that closed the pipe after the URL (`serve | head -1`)
        // does not stop the server: the lines are best effort.
        let _ = writeln!(out, "Watergate studio: {url}")
            .and_then(|()| writeln!(out, "Playing {playing}. Stop with Ctrl-C."))
            .and_then(|()| out.flush());
        tokio::spawn(play::expire_loop(Arc::clone(&state.sessions)));
        tokio::spawn(live::watch_loop(state.clone()));
        axum::serve(listener, router(state))
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}
