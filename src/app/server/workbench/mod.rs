//! The designer's workbench: the game's files opened, checked and saved
//! from the browser (`assets/studio/workbench.js`).
//!
//! With `--data DIR` a page opens any file of `cards/` (`.ron`) or
//! `scripts/` (`.rhai`), edits its text (or one value at a time in a form,
//! `ron_text.rs`: the value's characters only are replaced, so comments and
//! layout stay), and saves it back into the folder. Every save and every
//! check as the designer types is the game loaded with that text in place:
//! the same diagnostics as `watergate check`, each at its line. A file with
//! problems can be saved; the live-data reload (`live.rs`) then keeps the
//! last rules that loaded, so it never reaches a game.
//!
//! Writes: only an existing file of the game inside the data folder, named
//! relatively, with no `..`, resolved through links and still inside the
//! folder (`paths::inside`); the guard's Host and Origin checks come first.
//! Without `--data` the workbench reads the shipped files and writes none.
//!
//! Also: the session's edits and their undo (`History`), the folder against
//! the shipped game or the game as the page opened it (`watergate diff`'s
//! `app::diff`), and the paired comparison of the lab (`lab::launch`) with
//! the same bounds as a lab run.

pub mod ron_text;

use super::error::{ApiError, JsonBody};
use super::store::Store;
use super::AppState;
use crate::data::DataSet;
use crate::diag::{Diagnostic, Diagnostics};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// Checks running at once (each loads the whole game once; saves, undos,
/// diffs and folder reads count too): a page checks as its designer types,
/// debounced, one at a time.
pub const MAX_CHECKS: usize = 4;
/// Edits the history keeps, and the text they may hold in all: the oldest
/// are forgotten first.
pub const MAX_EDITS: usize = 200;
pub const MAX_HISTORY_BYTES: usize = 32 * 1024 * 1024;
/// Snapshots of the game as a page opened it (one per page load, about a
/// quarter of a megabyte each), kept for comparisons while they are used.
pub const MAX_SNAPSHOTS: usize = 64;
pub const SNAPSHOT_IDLE: Duration = Duration::from_secs(2 * 60 * 60);
/// The agent a comparison plays with unless the page names another: the
/// studio's own opponent, without its threads (the lab plays on every core).
pub const DEFAULT_AGENT: &str = "ismcts:1000";

/// What the workbench keeps between requests.
pub struct Workbench {
    history: Mutex<History>,
    snapshots: Store<DataSet>,
    checks: AtomicUsize,
}

impl Default for Workbench {
    fn default() -> Self {
        Workbench {
            history: Mutex::new(History::default()),
            snapshots: Store::new(MAX_SNAPSHOTS, SNAPSHOT_IDLE),
            checks: AtomicUsize::new(0),
        }
    }
}

/// One save (or undo) of the session: the file's text before and after.
struct Edit {
    id: u64,
    path: String,
    at: SystemTime,
    before: String,
    after: String,
    undone: bool,
}

#[derive(Default)]
struct History {
    next: u64,
    edits: Vec<Edit>,
}

impl History {
    fn push(&mut self, path: &str, before: String, after: String) -> u64 {
        self.next += 1;
        self.edits.push(Edit {
            id: self.next,
            path: path.to_string(),
            at: SystemTime::now(),
            before,
            after,
            undone: false,
        });
        let mut bytes: usize = self
            .edits
            .iter()
            .map(|e| e.before.len() + e.after.len())
            .sum();
        while self.edits.len() > MAX_EDITS || (bytes > MAX_HISTORY_BYTES && self.edits.len() > 1) {
            let e = self.edits.remove(0);
            bytes -= e.before.len() + e.after.len();
        }
        self.next
    }
}

pub fn routes() -> Router<AppState> {
    let r = Router::new()
        .route("/workbench", get(overview))
        .route("/workbench/file", get(open))
        .route("/workbench/check", post(check))
        .route("/workbench/field", post(field))
        .route("/workbench/save", post(save))
        .route("/workbench/history", get(history))
        .route("/workbench/undo", post(undo))
        .route("/workbench/snapshot", post(snapshot))
        .route("/workbench/compare", post(compare));
    // `watergate diff`'s comparison and printing are the command line's.
    #[cfg(feature = "cli")]
    let r = r.route("/workbench/diff", get(diff));
    r
}

/// How to start a workbench that writes, for the read-only one.
pub const HOW_TO_WRITE: &str = "the workbench is read-only: this studio plays the shipped game. To edit the game, export a copy with `watergate export mydata` and start the studio on it with `watergate serve --data mydata`";

/// The data folder, or the read-only refusal.
fn folder(st: &AppState) -> Result<&Path, ApiError> {
    st.source
        .data
        .as_deref()
        .ok_or_else(|| ApiError::forbidden(HOW_TO_WRITE))
}

/// What a file is, for the page's list and form.
fn kind_of(rel: &str) -> &'static str {
    match rel {
        crate::data::validate::GAME_FILE => "settings",
        crate::data::validate::BOARD_FILE => "board",
        crate::data::validate::TOKENS_FILE => "tokens",
        r if r.starts_with("scripts/") => "script",
        r if r.starts_with(crate::data::validate::MOMENTUM_DIR) => "momentum",
        _ => "card",
    }
}

/// Checks a file name from a page: relative, no `..` or `.` parts, no
/// backslash, and a file of the game (`cards/…/*.ron`, `scripts/…/*.rhai`).
/// Returns it as the data set names it.
pub fn game_file_name(rel: &str) -> Result<String, ApiError> {
    if rel.is_empty() {
        return Err(ApiError::bad_request("an empty path names no file"));
    }
    if Path::new(rel).is_absolute() || rel.starts_with(['/', '\\']) {
        return Err(ApiError::forbidden(format!(
            "`{rel}` is an absolute path: name a file relative to the data folder"
        )));
    }
    if rel.split(['/', '\\']).any(|p| p == "..") {
        return Err(ApiError::forbidden(format!(
            "`{rel}` climbs out of its folder (`..`): the workbench opens and writes files inside the data folder only"
        )));
    }
    if rel.contains('\\') || rel.split('/').any(|p| p.is_empty() || p == ".") {
        return Err(ApiError::bad_request(format!(
            "`{rel}` is not a plain relative path: write it as `cards/nixon/10_gordon_liddy.ron`"
        )));
    }
    let ok = (rel.starts_with("cards/") && rel.ends_with(".ron"))
        || (rel.starts_with("scripts/") && rel.ends_with(".rhai"));
    if !ok {
        return Err(ApiError::forbidden(format!(
            "`{rel}` is not a file of the game: the workbench opens cards/…/*.ron and scripts/…/*.rhai only"
        )));
    }
    Ok(rel.to_string())
}

/// `rel` in the data folder, resolved (links followed) and still inside it;
/// it must exist and be a regular file: the workbench edits, never creates.
fn resolve(root: &Path, rel: &str) -> Result<PathBuf, ApiError> {
    let rel = game_file_name(rel)?;
    let path = super::paths::inside(root, &rel, "the data folder")?;
    if !path.is_file() {
        return Err(ApiError::not_found(format!("`{rel}` is not a file")));
    }
    Ok(path)
}

/// A file's version: its FNV-1a hash, so a save can tell the file changed
/// on disk since the page read it.
pub fn version(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.as_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The text of `rel` as the studio's game has it now: from the data folder,
/// or the shipped copy.
fn read(st: &AppState, rel: &str) -> Result<String, ApiError> {
    match st.source.data.as_deref() {
        Some(root) => {
            let path = resolve(root, rel)?;
            crate::data::user_file::read_user_text(&path)
                .map_err(|e| ApiError::unprocessable(format!("`{rel}`: {e}")))
        }
        None => {
            let rel = game_file_name(rel)?;
            let ds = DataSet::embedded();
            let bytes = ds.get(&rel).ok_or_else(|| {
                ApiError::not_found(format!("the shipped game has no file `{rel}`"))
            })?;
            String::from_utf8(bytes.to_vec())
                .map_err(|_| ApiError::unprocessable(format!("`{rel}` is not UTF-8")))
        }
    }
}

/// A problem as the workbench shows it: the game file it is in (relative,
/// when it is one), where, and what.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct WbProblem {
    /// The file relative to the data root (`cards/game.ron`), when the
    /// problem is in one of the game's files.
    pub file: Option<String>,
    /// The path as `watergate check` prints it.
    pub path: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

fn problems_of(d: &[Diagnostic], ds: &DataSet) -> Vec<WbProblem> {
    let by_display: BTreeMap<String, &String> = ds
        .files
        .keys()
        .chain(ds.unread.keys())
        .map(|rel| (ds.display_path(rel), rel))
        .collect();
    d.iter()
        .map(|x| WbProblem {
            file: by_display.get(&x.path).map(|r| r.to_string()),
            path: x.path.clone(),
            line: x.line,
            col: x.col,
            message: x.message.clone(),
        })
        .collect()
}

/// What a check of the game finds: its problems (the game does not load
/// while there is one) and, when it loads, `watergate check`'s warnings
/// (`data::warnings`: advice, the game still loads).
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Findings {
    pub problems: Vec<WbProblem>,
    pub warnings: Vec<WbProblem>,
}

impl Findings {
    /// Whether the game loads (new games then use it).
    pub fn loads(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Every problem of the game with `text` in place of file `rel` (nothing
/// is written): the data folder (or shipped data) as it is, the edited
/// file, the `--variant` applied, then the whole load of `watergate check`;
/// its warnings when it loads.
pub fn check_text(st: &AppState, rel: &str, text: &str) -> Findings {
    let mut base = match st.source.base() {
        Ok(ds) => ds,
        Err(d) => {
            return Findings {
                problems: problems_of(&d.0, &DataSet::default()),
                ..Findings::default()
            }
        }
    };
    base.unread.remove(rel);
    base.files.insert(rel.to_string(), text.as_bytes().to_vec());
    let game = match st.source.variant() {
        Ok(None) => Ok(base.clone()),
        Ok(Some(v)) => v.apply(&base),
        Err(d) => Err(d),
    };
    match game.and_then(|ds| crate::data::load(&ds).map(|rules| (rules, ds))) {
        Ok((rules, ds)) => Findings {
            problems: Vec::new(),
            warnings: problems_of(&crate::data::warnings(&rules, &ds), &base),
        },
        Err(d) => Findings {
            problems: problems_of(&d.0, &base),
            ..Findings::default()
        },
    }
}

/// Runs `f` on a blocking thread, at most [`MAX_CHECKS`] at once.
async fn bounded<T: Send + 'static>(
    st: &AppState,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let wb = Arc::clone(&st.workbench);
    if wb
        .checks
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < MAX_CHECKS).then_some(n + 1)
        })
        .is_err()
    {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{MAX_CHECKS} checks or saves are running, the most this server runs at once; try again in a moment"),
        ));
    }
    let out = tokio::task::spawn_blocking(f).await;
    wb.checks.fetch_sub(1, Ordering::SeqCst);
    out.map_err(|e| ApiError::internal(format!("the check stopped: {e}")))
}

// ---- the overview and the files ----

#[derive(Serialize)]
struct FileEntry {
    path: String,
    kind: &'static str,
    /// The card's name, for a card file.
    title: Option<String>,
}

#[derive(Serialize)]
struct Overview {
    writable: bool,
    /// Why not, and how to start a workbench that writes.
    read_only: Option<&'static str>,
    /// The game in words (`watergate check`'s label).
    game: String,
    files: Vec<FileEntry>,
    default_agent: &'static str,
    max_games: u64,
    max_search_games: u64,
    max_iterations: u32,
    max_runs: usize,
}

async fn overview(State(st): State<AppState>) -> Result<Json<Overview>, ApiError> {
    let source = Arc::clone(&st.source);
    let base = bounded(&st, move || source.base()).await?.map_err(|d| {
        ApiError::unprocessable(format!(
            "the data folder cannot be read: {}",
            super::scenarios::problems(&d)
        ))
    })?;
    let files = base
        .files
        .iter()
        .filter(|(rel, _)| game_file_name(rel).is_ok())
        .map(|(rel, bytes)| {
            let kind = kind_of(rel);
            let title = matches!(kind, "card" | "momentum")
                .then(|| std::str::from_utf8(bytes).ok())
                .flatten()
                .and_then(|t| {
                    ron_text::fields(t)
                        .into_iter()
                        .find(|f| f.path == "name" && f.kind == "string")
                })
                .map(|f| f.value);
            FileEntry {
                path: rel.clone(),
                kind,
                title,
            }
        })
        .collect();
    Ok(Json(Overview {
        writable: st.source.data.is_some(),
        read_only: st.source.data.is_none().then_some(HOW_TO_WRITE),
        game: st.source.label(),
        files,
        default_agent: DEFAULT_AGENT,
        max_games: super::lab::MAX_GAMES,
        max_search_games: super::lab::MAX_SEARCH_GAMES,
        max_iterations: super::lab::MAX_ITERATIONS,
        max_runs: super::lab::MAX_RUNNING,
    }))
}

#[derive(Deserialize)]
struct PathQuery {
    path: String,
}

#[derive(Serialize)]
struct Opened {
    path: String,
    kind: &'static str,
    text: String,
    version: String,
    writable: bool,
    /// The values a form can edit (RON files).
    fields: Vec<ron_text::Field>,
    /// The card's id, for a card file (the comparison's per-card row).
    card: Option<String>,
    #[serde(flatten)]
    findings: Findings,
}

fn card_id(rel: &str, text: &str) -> Option<String> {
    matches!(kind_of(rel), "card" | "momentum")
        .then(|| ron_text::fields(text))?
        .into_iter()
        .find(|f| f.path == "id" && f.kind == "string")
        .map(|f| f.value)
}

fn fields_of(rel: &str, text: &str) -> Vec<ron_text::Field> {
    if rel.ends_with(".ron") {
        ron_text::fields(text)
    } else {
        Vec::new()
    }
}

async fn open(
    State(st): State<AppState>,
    Query(q): Query<PathQuery>,
) -> Result<Json<Opened>, ApiError> {
    let st2 = st.clone();
    let rel = q.path.clone();
    let (text, findings) = bounded(&st, move || {
        let text = read(&st2, &rel)?;
        let findings = check_text(&st2, &rel, &text);
        Ok::<_, ApiError>((text, findings))
    })
    .await??;
    Ok(Json(Opened {
        kind: kind_of(&q.path),
        version: version(&text),
        writable: st.source.data.is_some(),
        fields: fields_of(&q.path, &text),
        card: card_id(&q.path, &text),
        path: q.path,
        text,
        findings,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextBody {
    path: String,
    text: String,
}

#[derive(Serialize)]
struct Checked {
    #[serde(flatten)]
    findings: Findings,
    fields: Vec<ron_text::Field>,
}

/// `POST /api/workbench/check`: the problems of the game with this text in
/// place (nothing is written). Read-only studios check too.
async fn check(
    State(st): State<AppState>,
    JsonBody(b): JsonBody<TextBody>,
) -> Result<Json<Checked>, ApiError> {
    let rel = game_file_name(&b.path)?;
    let st2 = st.clone();
    let checked = bounded(&st, move || Checked {
        fields: fields_of(&rel, &b.text),
        findings: check_text(&st2, &rel, &b.text),
    })
    .await?;
    Ok(Json(checked))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldBody {
    path: String,
    text: String,
    field: String,
    value: String,
}

#[derive(Serialize)]
struct FieldSet {
    text: String,
}

/// `POST /api/workbench/field`: the text with one form field's value
/// replaced (nothing is written; the page saves).
async fn field(JsonBody(b): JsonBody<FieldBody>) -> Result<Json<FieldSet>, ApiError> {
    game_file_name(&b.path)?;
    if !b.path.ends_with(".ron") {
        return Err(ApiError::bad_request(
            "a script has no form fields: edit its text",
        ));
    }
    ron_text::set_field(&b.text, &b.field, &b.value)
        .map(|text| Json(FieldSet { text }))
        .map_err(ApiError::bad_request)
}

// ---- saving, history, undo ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveBody {
    path: String,
    text: String,
    /// The version the page read; a save over a file changed since is
    /// refused unless `force`.
    #[serde(default)]
    base: Option<String>,
    #[serde(default)]
    force: bool,
}

#[derive(Serialize)]
struct Saved {
    path: String,
    version: String,
    /// The game's problems and warnings with the file as saved.
    #[serde(flatten)]
    findings: Findings,
    /// Whether new games now use the saved file (the game loads).
    loaded: bool,
    /// The fingerprint of the rules new games use.
    fingerprint: String,
    edit: Option<u64>,
}

/// Writes `text` to `path`: a new file beside the data folder's own files
/// (not under `cards/` or `scripts/`, which the live reload watches and the
/// loader reads), renamed over the old one, so no reader sees half a file.
fn write_file(root: &Path, path: &Path, text: &str) -> Result<(), ApiError> {
    let fail =
        |e: std::io::Error| ApiError::internal(format!("cannot write `{}`: {e}", path.display()));
    let tmp = root.join(format!(".workbench-{}.tmp", super::store::random_id()));
    let written = std::fs::write(&tmp, text).and_then(|()| {
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
        // Another file system under the folder (a link to elsewhere inside
        // it, a mount): write in place.
        std::fs::write(path, text).map_err(fail)?;
    }
    Ok(())
}

/// Reloads the game after a write, as the live-data watcher would (it
/// will see the change too): new games use the file if the game loads.
fn reload(st: &AppState) -> String {
    let status = super::live::reload(st);
    let fp = status.fingerprint.clone();
    st.pages.live.send_replace(status);
    fp
}

fn lock(st: &AppState) -> std::sync::MutexGuard<'_, History> {
    st.workbench
        .history
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

async fn save(
    State(st): State<AppState>,
    JsonBody(b): JsonBody<SaveBody>,
) -> Result<Json<Saved>, ApiError> {
    let root = folder(&st)?.to_path_buf();
    let st2 = st.clone();
    let saved = bounded(&st, move || {
        let path = resolve(&root, &b.path)?;
        let before = crate::data::user_file::read_user_text(&path)
            .map_err(|e| ApiError::unprocessable(format!("`{}`: {e}", b.path)))?;
        if let Some(base) = &b.base {
            if *base != version(&before) && !b.force {
                return Err(ApiError::conflict(format!(
                    "`{}` changed on disk since the page read it (another editor?): reload it, or save again to overwrite it",
                    b.path
                )));
            }
        }
        let edit = (before != b.text).then(|| {
            write_file(&root, &path, &b.text)?;
            Ok::<_, ApiError>(lock(&st2).push(&b.path, before, b.text.clone()))
        });
        let edit = edit.transpose()?;
        let findings = check_text(&st2, &b.path, &b.text);
        let fingerprint = reload(&st2);
        Ok(Saved {
            version: version(&b.text),
            loaded: findings.loads(),
            path: b.path,
            findings,
            fingerprint,
            edit,
        })
    })
    .await??;
    Ok(Json(saved))
}

#[derive(Serialize)]
struct EditView {
    id: u64,
    path: String,
    /// Seconds since 1970.
    at: u64,
    undone: bool,
    /// The first line that differs, and the lines before and after.
    first_line: usize,
    lines_before: usize,
    lines_after: usize,
}

fn edit_view(e: &Edit) -> EditView {
    let first_line = e
        .before
        .lines()
        .zip(e.after.lines())
        .take_while(|(a, b)| a == b)
        .count()
        + 1;
    EditView {
        id: e.id,
        path: e.path.clone(),
        at: e
            .at
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        undone: e.undone,
        first_line,
        lines_before: e.before.lines().count(),
        lines_after: e.after.lines().count(),
    }
}

#[derive(Serialize)]
struct HistoryView {
    /// Newest first.
    edits: Vec<EditView>,
    /// The edit an undo would take back.
    undoable: Option<u64>,
}

fn history_view(h: &History) -> HistoryView {
    HistoryView {
        edits: h.edits.iter().rev().map(edit_view).collect(),
        undoable: h.edits.iter().rev().find(|e| !e.undone).map(|e| e.id),
    }
}

async fn history(State(st): State<AppState>) -> Json<HistoryView> {
    Json(history_view(&lock(&st)))
}

#[derive(Serialize)]
struct Undone {
    path: String,
    text: String,
    version: String,
    #[serde(flatten)]
    findings: Findings,
    loaded: bool,
    history: HistoryView,
}

/// `POST /api/workbench/undo`: the latest edit not yet undone is taken
/// back (its file gets its text from before), if the file is still as that
/// edit left it; a file changed since is not overwritten.
async fn undo(State(st): State<AppState>) -> Result<Json<Undone>, ApiError> {
    let root = folder(&st)?.to_path_buf();
    let st2 = st.clone();
    let out = bounded(&st, move || {
        let mut h = lock(&st2);
        let Some(e) = h.edits.iter_mut().rev().find(|e| !e.undone) else {
            return Err(ApiError::conflict("there is no edit of this session to undo"));
        };
        let path = resolve(&root, &e.path)?;
        let now = crate::data::user_file::read_user_text(&path)
            .map_err(|x| ApiError::unprocessable(format!("`{}`: {x}", e.path)))?;
        if now != e.after {
            return Err(ApiError::conflict(format!(
                "`{}` changed since edit {} (saved again, or edited outside the studio): undo would lose that text, so it is refused",
                e.path, e.id
            )));
        }
        write_file(&root, &path, &e.before)?;
        e.undone = true;
        let (rel, text) = (e.path.clone(), e.before.clone());
        let view = history_view(&h);
        drop(h);
        let findings = check_text(&st2, &rel, &text);
        reload(&st2);
        Ok(Undone {
            version: version(&text),
            loaded: findings.loads(),
            path: rel,
            text,
            findings,
            history: view,
        })
    })
    .await??;
    Ok(Json(out))
}

// ---- snapshots, diff, comparison ----

#[derive(Serialize)]
struct Snapshot {
    id: String,
}

/// The game as it is now (its base files), kept so the page can compare
/// with "the game as it was when the page opened".
async fn snapshot(State(st): State<AppState>) -> Result<Json<Snapshot>, ApiError> {
    let source = Arc::clone(&st.source);
    let ds = bounded(&st, move || source.base()).await?.map_err(|d| {
        ApiError::unprocessable(format!(
            "the data folder cannot be read: {}",
            super::scenarios::problems(&d)
        ))
    })?;
    let (id, _) = st.workbench.snapshots.insert(ds).map_err(|max| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{max} snapshots are kept, the most this server keeps; try again later"),
        )
    })?;
    Ok(Json(Snapshot { id }))
}

#[derive(Deserialize)]
struct AgainstQuery {
    /// `shipped` (default) or `opened`.
    #[serde(default)]
    against: Option<String>,
    /// The snapshot, for `opened`.
    #[serde(default)]
    snapshot: Option<String>,
}

/// The game compared against: its files (the variant applied, as the
/// studio's own game) and its label.
fn other_game(
    st: &AppState,
    against: Option<&str>,
    snapshot: Option<&str>,
) -> Result<(DataSet, String), ApiError> {
    match against.unwrap_or("shipped") {
        "shipped" => Ok((DataSet::embedded(), "the shipped game".to_string())),
        "opened" => {
            let id = snapshot.ok_or_else(|| {
                ApiError::bad_request("against `opened`: name the page's snapshot")
            })?;
            let base = st.workbench.snapshots.get(id).ok_or_else(|| {
                ApiError::not_found(
                    "no such snapshot (it may have expired): open the workbench again",
                )
            })?;
            let ds = match st
                .source
                .variant()
                .map_err(|d| ApiError::unprocessable(super::scenarios::problems(&d)))?
            {
                None => (*base).clone(),
                Some(v) => v
                    .apply(&base)
                    .map_err(|d| ApiError::unprocessable(super::scenarios::problems(&d)))?,
            };
            Ok((ds, "the game as the workbench opened it".to_string()))
        }
        other => Err(ApiError::bad_request(format!(
            "against `{other}`: compare with `shipped` or `opened`"
        ))),
    }
}

fn not_loading(what: &str, d: &Diagnostics) -> ApiError {
    ApiError::unprocessable(format!(
        "{what} does not load, so there is nothing to compare; fix its problems first:\n{}",
        super::scenarios::problems(d)
    ))
}

#[cfg(feature = "cli")]
#[derive(Serialize)]
struct DiffView {
    from: String,
    to: String,
    differences: Vec<crate::app::diff::Change>,
    /// As `watergate diff` prints it.
    text: String,
}

/// `GET /api/workbench/diff?against=shipped|opened&snapshot=ID`: what the
/// data folder changes, as `watergate diff --data DIR` prints it.
#[cfg(feature = "cli")]
async fn diff(
    State(st): State<AppState>,
    Query(q): Query<AgainstQuery>,
) -> Result<Json<DiffView>, ApiError> {
    folder(&st)?;
    let st2 = st.clone();
    let view = bounded(&st, move || {
        let (old, from) = other_game(&st2, q.against.as_deref(), q.snapshot.as_deref())?;
        let new = st2
            .source
            .dataset()
            .map_err(|d| not_loading("the data folder", &d))?;
        let to = st2.source.label();
        let differences = crate::app::diff::diff(&old, &new).map_err(|d| not_loading(&from, &d))?;
        Ok::<_, ApiError>(DiffView {
            text: crate::app::cli::diff::text(&from, &to, &differences),
            from,
            to,
            differences,
        })
    })
    .await??;
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CompareBody {
    #[serde(default)]
    against: Option<String>,
    #[serde(default)]
    snapshot: Option<String>,
    #[serde(default = "default_agent")]
    editor: String,
    #[serde(default = "default_agent")]
    nixon: String,
    #[serde(deserialize_with = "super::numbers::count")]
    games: u64,
    #[serde(default = "one", with = "super::numbers::seed")]
    seed: u64,
}

fn default_agent() -> String {
    DEFAULT_AGENT.to_string()
}
fn one() -> u64 {
    1
}

/// `POST /api/workbench/compare`: the lab's paired comparison of the
/// studio's game (the folder as saved) with the shipped game or the game as
/// the page opened it. A lab run: its caps, its progress stream
/// (`/api/lab/{id}/events`) and its result (the difference in the Editor's
/// win rate with its 95% interval, the per-card table).
async fn compare(
    State(st): State<AppState>,
    JsonBody(b): JsonBody<CompareBody>,
) -> Result<Json<super::lab::Started>, ApiError> {
    // Without a data folder the studio's game is the shipped one: nothing
    // to compare.
    folder(&st)?;
    let req = super::lab::LabRequest {
        games: b.games,
        seed: b.seed,
        editor: b.editor,
        nixon: b.nixon,
        variant: None,
        against: None,
    };
    let st2 = st.clone();
    let req2 = req.clone();
    let prepared = tokio::task::spawn_blocking(move || {
        // The lab checks the agents and the games' cap, and loads the
        // studio's game; only the game compared against is the workbench's.
        let mut p = super::lab::prepare(&st2, &req2)?;
        let (ds, label) = other_game(&st2, b.against.as_deref(), b.snapshot.as_deref())?;
        let other = crate::data::load(&ds).map_err(|d| not_loading(&label, &d))?;
        if other.fingerprint == p.rules.fingerprint {
            return Err(ApiError::bad_request(format!(
                "the data folder is {label}, unchanged: edit and save a file first"
            )));
        }
        p.against = Some((other, label));
        Ok(p)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the comparison did not start: {e}")))??;
    super::lab::launch(&st, req, prepared).map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_game_s_own_files_are_named() {
        for ok in [
            "cards/game.ron",
            "cards/nixon/10_gordon_liddy.ron",
            "scripts/nixon/x.rhai",
        ] {
            assert_eq!(game_file_name(ok).unwrap(), ok);
        }
        for (bad, status, says) in [
            ("", 400, "empty"),
            ("/etc/passwd", 403, "absolute"),
            ("../secret.ron", 403, "climbs out"),
            ("cards/../../x.ron", 403, "climbs out"),
            ("cards/./game.ron", 400, "plain relative"),
            ("cards//game.ron", 400, "plain relative"),
            ("cards\\game.ron", 400, "plain relative"),
            ("scenarios/variants/v.ron", 403, "not a file of the game"),
            ("cards/game.rhai", 403, "not a file of the game"),
            ("scripts/x.ron", 403, "not a file of the game"),
        ] {
            let e = game_file_name(bad).unwrap_err();
            assert_eq!(e.status.as_u16(), status, "{bad}: {}", e.message);
            assert!(e.message.contains(says), "{bad}: {}", e.message);
        }
    }

    #[test]
    fn the_history_is_bounded_oldest_first() {
        let mut h = History::default();
        for i in 0..(MAX_EDITS + 5) {
            h.push("cards/game.ron", format!("{i}"), format!("{}", i + 1));
        }
        assert_eq!(h.edits.len(), MAX_EDITS);
        assert_eq!(h.edits[0].id, 6);
        let big = "x".repeat(MAX_HISTORY_BYTES / 2);
        h.push("a", big.clone(), big.clone());
        h.push("b", big.clone(), big);
        assert!(
            h.edits
                .iter()
                .map(|e| e.before.len() + e.after.len())
                .sum::<usize>()
                <= MAX_HISTORY_BYTES
        );
        assert_eq!(h.edits.last().unwrap().path, "b");
    }

    #[test]
    fn an_edit_says_where_it_starts() {
        let e = Edit {
            id: 1,
            path: "p".into(),
            at: SystemTime::now(),
            before: "a\nb\nc\n".into(),
            after: "a\nB\nc\nd\n".into(),
            undone: false,
        };
        let v = edit_view(&e);
        assert_eq!((v.first_line, v.lines_before, v.lines_after), (2, 3, 4));
    }
}
