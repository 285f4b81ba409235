//! Live data: with `--data DIR` the studio watches the data folder (and the
//! `--variant` file) and reloads the game when a file changes. New games
//! are dealt with the new rules; a running game keeps the `Arc<Rules>` it
//! started with. When the files no longer load, the last good rules stay
//! in force and the problems — `path:line:col`, the message and the
//! source line, as `watergate check` prints them — are shown on every page.
//!
//! Watching is polling: every [`POLL`] the names, sizes and modification
//! times of the files under `cards/`, `scripts/` and `scenarios/` are
//! compared with the last look. Polling needs no platform API, sees edits
//! made through any editor's save strategy (rename, truncate, rewrite) and
//! costs a few hundred `stat` calls a second at most.
//!
//! Pages hear of a change through server-sent events (`GET /api/live`).

use super::{AppState, Problem};
use crate::diag::Diagnostics;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use tokio::sync::watch;

/// How often the data folder is looked at.
pub const POLL: Duration = Duration::from_millis(400);
/// The most files looked at (a data folder holds about a hundred).
const MAX_FILES: usize = 20_000;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/live", get(events))
        .route("/live/status", get(status))
}

/// What pages are told at each change.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// Counts the reloads since the server started.
    pub version: u64,
    /// Whether the folder is watched (only with `--data`).
    pub watching: bool,
    /// The fingerprint of the rules new games use.
    pub fingerprint: String,
    pub problems: Vec<Problem>,
    /// The folder has not loaded since the server started: new games use
    /// the shipped game, standing in, until it does.
    pub stand_in: bool,
}

/// The channel pages subscribe to.
pub fn channel(watching: bool, fingerprint: String) -> watch::Sender<Status> {
    watch::Sender::new(Status {
        version: 0,
        watching,
        fingerprint,
        problems: Vec::new(),
        stand_in: false,
    })
}

/// A file's identity for change detection.
type Stamp = (PathBuf, u64, Option<SystemTime>);

/// Names, sizes and modification times of the files the game is made of,
/// sorted.
pub fn signature(root: &Path, variant: Option<&Path>) -> Vec<Stamp> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = ["cards", "scripts", "scenarios"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            if out.len() >= MAX_FILES {
                break;
            }
            let Ok(meta) = e.metadata() else { continue };
            if meta.is_dir() {
                stack.push(e.path());
            } else {
                out.push((e.path(), meta.len(), meta.modified().ok()));
            }
        }
    }
    if let Some(v) = variant {
        if let Ok(meta) = std::fs::metadata(v) {
            out.push((v.to_path_buf(), meta.len(), meta.modified().ok()));
        }
    }
    out.sort();
    out
}

/// Diagnostics as the page shows them, each with its source line when the
/// file lies inside the data folder (or is the variant file).
pub fn problems(d: &Diagnostics, root: &Path, variant: Option<&Path>) -> Vec<Problem> {
    d.iter()
        .map(|diag| {
            let path = Path::new(&diag.path);
            let readable = super::paths::within(root, path)
                || variant.is_some_and(
                    |v| matches!((v.canonicalize(), path.canonicalize()), (Ok(a), Ok(b)) if a == b),
                );
            let line = (readable && diag.line > 0)
                .then(|| crate::data::user_file::read_user_text(path).ok())
                .flatten()
                .and_then(|t| t.lines().nth(diag.line - 1).map(str::to_string));
            Problem::of(diag, line)
        })
        .collect()
}

/// Loads the game again: new rules on success, problems otherwise (the
/// last good rules stay). Returns the status to publish.
pub fn reload(st: &AppState) -> Status {
    let root = st.source.data.clone().unwrap_or_default();
    let (fingerprint, found) = match st.source.load() {
        Ok((_, rules)) => {
            st.folder_loaded
                .store(true, std::sync::atomic::Ordering::Relaxed);
            let fp = crate::formats::log::fingerprint_hex(&rules);
            match st.rules.write() {
                Ok(mut r) => *r = std::sync::Arc::new(rules),
                Err(p) => *p.into_inner() = std::sync::Arc::new(rules),
            }
            (fp, Vec::new())
        }
        Err(d) => (
            crate::formats::log::fingerprint_hex(&st.current_rules()),
            problems(&d, &root, st.source.variant.as_deref()),
        ),
    };
    match st.problems.write() {
        Ok(mut p) => *p = found.clone(),
        Err(p) => *p.into_inner() = found.clone(),
    }
    let version = st.pages.live.borrow().version + 1;
    Status {
        version,
        watching: true,
        fingerprint,
        problems: found,
        stand_in: !st.folder_loaded.load(std::sync::atomic::Ordering::Relaxed),
    }
}

/// Watches the data folder for as long as the server runs (only with
/// `--data`; the shipped data cannot change).
pub async fn watch_loop(st: AppState) {
    let Some(root) = st.source.data.clone() else {
        return;
    };
    let variant = st.source.variant.clone();
    let look = {
        let (root, variant) = (root.clone(), variant.clone());
        move || signature(&root, variant.as_deref())
    };
    let mut last = match tokio::task::spawn_blocking(look.clone()).await {
        Ok(s) => s,
        Err(_) => return,
    };
    // The files may have changed between the command's load and this first
    // look: load once more, and publish only if that gave another game.
    let st2 = st.clone();
    if let Ok(status) = tokio::task::spawn_blocking(move || reload(&st2)).await {
        let before = st.pages.live.borrow().fingerprint.clone();
        if status.fingerprint != before || !status.problems.is_empty() {
            st.pages.live.send_replace(status);
        }
    }
    loop {
        tokio::time::sleep(POLL).await;
        let Ok(now) = tokio::task::spawn_blocking(look.clone()).await else {
            return;
        };
        if now == last {
            continue;
        }
        last = now;
        let st2 = st.clone();
        if let Ok(status) = tokio::task::spawn_blocking(move || reload(&st2)).await {
            st.pages.live.send_replace(status);
        }
    }
}

async fn status(State(st): State<AppState>) -> Json<Status> {
    Json(st.pages.live.borrow().clone())
}

/// `GET /api/live`: a stream of `status` events, the current one first.
async fn events(
    State(st): State<AppState>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    let rx = st.pages.live.subscribe();
    let stream = futures_util::stream::unfold((rx, true), |(mut rx, first)| async move {
        if !first && rx.changed().await.is_err() {
            return None;
        }
        let status = rx.borrow_and_update().clone();
        let event = Event::default()
            .event("status")
            .json_data(&status)
            .unwrap_or_else(|_| Event::default().event("status").data("{}"));
        Some((Ok(event), (rx, false)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_changes_the_signature() {
        let tmp = tempfile::Builder::new()
            .prefix("wg-live-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().to_path_buf();
        std::fs::create_dir_all(dir.join("cards")).unwrap();
        std::fs::write(dir.join("cards/game.ron"), "a").unwrap();
        let a = signature(&dir, None);
        assert_eq!(a.len(), 1);
        std::fs::write(dir.join("cards/game.ron"), "ab").unwrap();
        assert_ne!(signature(&dir, None), a);
        std::fs::create_dir_all(dir.join("scripts/x")).unwrap();
        std::fs::write(dir.join("scripts/x/y.rhai"), "").unwrap();
        assert_eq!(signature(&dir, None).len(), 2);
    }

    #[test]
    fn a_problem_carries_its_source_line() {
        let tmp = tempfile::Builder::new()
            .prefix("wg-live-p-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().to_path_buf();
        crate::data::DataSet::embedded().write_to(&dir).unwrap();
        let game = dir.join("cards/game.ron");
        let text = std::fs::read_to_string(&game).unwrap();
        let broken = text.replacen("hand_size_with_initiative", "hand_size_with_initiativ", 1);
        std::fs::write(&game, &broken).unwrap();
        let d = crate::data::GameSource {
            data: Some(dir.clone()),
            variant: None,
        }
        .load()
        .unwrap_err();
        let ps = problems(&d, &dir, None);
        let p = ps
            .iter()
            .find(|p| p.path.ends_with("game.ron"))
            .expect("a problem in game.ron");
        assert!(p.line > 0 && p.col > 0);
        assert!(
            p.source_line
                .as_deref()
                .unwrap()
                .contains("hand_size_with_initiativ"),
            "{p:?}"
        );
    }
}
