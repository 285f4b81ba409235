//! Puzzles: attempt a puzzle of `scenarios/puzzles`, a mined one of
//! `scenarios/puzzles/mined` (written by `watergate mine`; listed with `?set=mined`,
//! filtered with `&difficulty=easy|medium|hard`) or an uploaded scenario
//! against the solver's best defence, through the same
//! `session::puzzle::Attempt` as `watergate puzzle`. The goal is stated, a
//! hint asks the solver, the recorded solution is shown only on request.
//!
//! A puzzle is a full-information position: the solver sees the whole
//! table, so the player is shown it too, and the page says so.
//!
//! The solver runs off the async runtime (`spawn_blocking`), bounded in
//! positions ([`NODE_LIMIT`]) and time ([`TIME_LIMIT`]); while it thinks,
//! `GET /api/puzzles/attempt/{id}/progress` tells the page how far it got.
//!
//! The lists are kept as parsed between requests, each file read again
//! once it changes ([`ListCache`]).
//!
//! At most [`MAX_ATTEMPTS`] are kept at once; the page ends its attempt
//! (`DELETE /api/puzzles/attempt/{id}`) when the player leaves it, so one
//! who goes through the list never reaches that bound.

use super::error::{ApiError, JsonBody};
use super::play::seat::{option_view, Faces, OptionView};
use super::scenarios::{Files, Stamp, PUZZLES};
use super::table::{self, Table};
use super::AppState;
use crate::app::session::answer::{self, Reading};
use crate::app::session::puzzle::{self, Bounds, Ending, Mover, Tell};
use crate::formats::scenario::format::PuzzleDef;
use crate::game::engine::Actor;
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::lab::mine::{difficulty_of, Difficulty};
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The solver's bound in positions for each answer and hint.
pub const NODE_LIMIT: u64 = 4_000_000;
/// …and in time: past it the search stops as at the node limit.
pub const TIME_LIMIT: Duration = Duration::from_secs(20);
/// Attempts kept at once, and how long an idle one is kept.
pub const MAX_ATTEMPTS: usize = 64;
pub const IDLE: Duration = Duration::from_secs(30 * 60);

/// The mined puzzles (written by `watergate mine`): those of the data
/// folder with `--data DIR`, else the copies shipped in the binary.
pub const MINED_FOLDER: &str = "scenarios/puzzles/mined";

/// Which list of puzzles: the hand-made ones or the mined ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Set {
    Made,
    Mined,
}

impl Set {
    fn parse(s: Option<&str>) -> Result<Set, ApiError> {
        match s {
            None | Some("") | Some("made") => Ok(Set::Made),
            Some("mined") => Ok(Set::Mined),
            Some(other) => Err(ApiError::bad_request(format!(
                "set `{other}`: expected `made` (the hand-made puzzles) or `mined`"
            ))),
        }
    }

    fn key(self) -> &'static str {
        match self {
            Set::Made => "made",
            Set::Mined => "mined",
        }
    }

    fn list(self, files: &Files) -> Vec<String> {
        files.list(self.folder())
    }

    /// The text of puzzle `name` of the set, with the path to show.
    fn read(self, files: &Files, name: &str) -> Result<(String, String), ApiError> {
        files.read(self.folder(), name)
    }

    /// The folder its scenarios are read as lying in.
    fn folder(self) -> &'static str {
        match self {
            Set::Made => PUZZLES,
            Set::Mined => MINED_FOLDER,
        }
    }
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/puzzles", get(list))
        .route("/puzzles/attempt", post(start))
        .route("/puzzles/attempt/{id}", get(show).delete(end))
        .route("/puzzles/attempt/{id}/choose", post(choose))
        .route("/puzzles/attempt/{id}/hint", post(hint))
        .route("/puzzles/attempt/{id}/reveal", post(reveal))
        .route("/puzzles/attempt/{id}/progress", get(progress))
}

/// One attempt as stored: the game behind a lock, and what the page may
/// ask while the solver holds it.
pub struct Attempt {
    thinking: AtomicBool,
    nodes: AtomicU64,
    inner: Mutex<Inner>,
}

/// An attempt's game and record.
pub struct Inner {
    rules: Arc<Rules>,
    def: PuzzleDef,
    name: String,
    goal: String,
    file: String,
    game: puzzle::Attempt,
    /// What happened, in order: the player's moves, the solver's answers,
    /// chance, and their narration.
    log: Vec<String>,
    hint: Option<String>,
}

/// What the page is told of an attempt as it goes: the log's lines, and
/// the solver's progress.
struct Page<'a> {
    log: &'a mut Vec<String>,
    watch: &'a dyn Fn(u64) -> bool,
}

impl Tell for Page<'_> {
    type Error = std::convert::Infallible;

    fn thinking(&self) -> Box<dyn Fn(u64) -> bool + '_> {
        Box::new(|n| (self.watch)(n))
    }

    fn note(&mut self, line: &str) -> Result<(), Self::Error> {
        self.log.push(line.to_string());
        Ok(())
    }

    fn took(
        &mut self,
        who: Mover,
        name: &str,
        told: Result<Vec<String>, String>,
    ) -> Result<Option<Ending>, Self::Error> {
        let who = match who {
            Mover::Chance => "Chance".to_string(),
            Mover::Solver(side) => side.to_string(),
            Mover::Player(side) => format!("You ({side})"),
        };
        Ok(match told {
            Ok(lines) => {
                self.log.push(format!("{who}: {name}"));
                self.log
                    .extend(lines.into_iter().map(|l| format!("  • {l}")));
                None
            }
            Err(e) => {
                self.log.push(format!("{who}: {name} failed: {e}"));
                Some(Ending::Failed(format!("a card script failed: {e}")))
            }
        })
    }
}

/// What the page shows of an attempt.
#[derive(Serialize)]
pub struct AttemptView {
    pub id: String,
    pub name: String,
    pub file: String,
    pub goal: String,
    pub side: Side,
    pub opponent: Side,
    /// Always true: a puzzle is a full-information position.
    pub full_information: bool,
    /// The puzzle's own board and pieces (a puzzle may play on a variant's
    /// board), in the shape of `GET /api/game`.
    pub(super) game: super::game::Game,
    /// The whole position (a puzzle is full-information), in the shape of
    /// Play's view for the player's side: their hand as `hand`, and both
    /// hands face up in `hands` (the opponent's too).
    pub table: Table,
    pub prompt: Option<String>,
    pub options: Vec<OptionView>,
    pub log: Vec<String>,
    pub moves: Vec<String>,
    pub hints: u32,
    pub hint: Option<String>,
    pub revealed: bool,
    pub solution: Option<Solution>,
    /// `solved`, `unproven` (won, but a search ran out on the way),
    /// `failed`, or `None` while it goes on.
    pub ending: Option<&'static str>,
    pub verdict: Option<String>,
}

#[derive(Serialize, Clone)]
pub struct Solution {
    pub theme: String,
    pub explanation: Vec<String>,
    pub moves: Vec<String>,
}

/// A move: an option's index, or its notation.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    pub index: Option<usize>,
    pub notation: Option<String>,
}

impl Inner {
    /// A new attempt at puzzle `def`, from `start`.
    pub fn new(
        rules: Arc<Rules>,
        def: PuzzleDef,
        start: &crate::game::state::State,
        name: String,
        goal: String,
        file: String,
    ) -> Inner {
        // Chance from a seed nobody knows: a fixed one would let a second
        // attempt know what every random event gives.
        let chance_seed = crate::app::secret::random_seed().unwrap_or_else(|_| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        let bounds = Bounds {
            node_limit: NODE_LIMIT,
            named: "positions or time",
        };
        let game = puzzle::Attempt::new(&def, start, chance_seed, bounds);
        Inner {
            rules,
            def,
            name,
            goal,
            file,
            game,
            log: Vec::new(),
            hint: None,
        }
    }

    /// Plays chance and the solver's answers until the player decides or
    /// the attempt is over.
    pub fn advance(&mut self, watch: &dyn Fn(u64) -> bool) {
        let mut page = Page {
            log: &mut self.log,
            watch,
        };
        let Ok(_) = self.game.advance(&self.rules, &mut page);
    }

    /// The player's move; refused (the attempt unchanged) when it is not
    /// one of the options.
    pub fn choose(&mut self, a: &Answer, watch: &dyn Fn(u64) -> bool) -> Result<(), ApiError> {
        if self.game.ending.is_some() {
            return Err(ApiError::conflict("this attempt is over: start it again"));
        }
        let r = Arc::clone(&self.rules);
        let mut options = Vec::new();
        match self.game.s.legal(&r, &mut options) {
            Some(Actor::Player(side)) if side == self.def.side => {}
            _ => return Err(ApiError::conflict("it is not your move")),
        }
        let answer = match (a.index, a.notation.as_deref()) {
            (Some(i), None) => answer::Answer::Number(i as i128),
            (None, Some(text)) => answer::Answer::Notation(text),
            _ => {
                return Err(ApiError::bad_request(
                    "send either `index` (an option's number) or `notation` (its text)",
                ))
            }
        };
        let reading = Reading {
            first: 0,
            explain: None,
        };
        let c = answer::choice(&r, &self.game.s, answer, &options, reading)
            .map_err(|refused| ApiError::bad_request(refused.to_string()))?;
        self.hint = None;
        let mut page = Page {
            log: &mut self.log,
            watch,
        };
        let Ok(()) = self.game.play(&r, c, &mut page);
        self.advance(watch);
        Ok(())
    }

    /// The solver's move from here, counted.
    pub fn hint(&mut self, watch: &dyn Fn(u64) -> bool) -> Result<(), ApiError> {
        if self.game.ending.is_some() {
            return Err(ApiError::conflict(
                "this attempt is over: no hint is needed",
            ));
        }
        self.hint = Some(self.game.hint(&self.rules, watch));
        Ok(())
    }

    pub fn reveal(&mut self) {
        self.game.revealed = true;
    }

    pub fn view(&self, id: &str) -> AttemptView {
        let r = &self.rules;
        let side = self.def.side;
        let mut options = Vec::new();
        let mine = self.game.ending.is_none()
            && matches!(self.game.s.legal(r, &mut options), Some(Actor::Player(s)) if s == side);
        if !mine {
            options.clear();
        }
        let ending = self.game.ending.as_ref().map(|e| match e {
            // Won, but a search ran out on the way: not proven (the verdict).
            Ending::Solved if self.game.unsettled > 0 => "unproven",
            Ending::Solved => "solved",
            Ending::Failed(_) | Ending::Quit => "failed",
        });
        let verdict = self.game.ending.as_ref().map(|e| self.game.verdict(e));
        AttemptView {
            id: id.to_string(),
            name: self.name.clone(),
            file: self.file.clone(),
            goal: self.goal.clone(),
            side,
            opponent: side.other(),
            full_information: true,
            game: super::game::describe(r, self.file.clone(), Vec::new()),
            table: table::whole(r, &Faces::of(r), &self.game.s, side),
            prompt: mine.then(|| {
                crate::app::terminal::decision_text(r, side, &self.game.s.decision_kind(r))
            }),
            options: options
                .iter()
                .enumerate()
                .map(|(index, c)| option_view(r, side, &self.game.s, index, *c))
                .collect(),
            log: self.log.clone(),
            moves: self.game.moves.clone(),
            hints: self.game.hints,
            hint: self.hint.clone(),
            revealed: self.game.revealed,
            solution: self.game.revealed.then(|| Solution {
                theme: self.def.theme.clone(),
                explanation: self.def.explanation.clone(),
                moves: self.def.solution.clone(),
            }),
            ending,
            verdict,
        }
    }
}

#[derive(Serialize, Clone, Debug)]
struct Listed {
    file: String,
    /// `made` or `mined`: send it back with `file` to start an attempt.
    set: &'static str,
    name: String,
    goal: Option<String>,
    /// Whose move it is.
    side: Option<Side>,
    /// `easy`, `medium` or `hard`, as `watergate mine` measured it (the
    /// file's `// Difficulty:` line); none for a hand-made puzzle.
    difficulty: Option<&'static str>,
    /// Why the file cannot be attempted, if it cannot.
    problem: Option<String>,
}

/// `GET /api/puzzles[?set=mined][&difficulty=hard]`: the puzzles of a set,
/// only those of one difficulty if asked.
async fn list(
    State(st): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Vec<Listed>>, ApiError> {
    if let Some(k) = q.keys().find(|k| *k != "set" && *k != "difficulty") {
        return Err(ApiError::bad_request(format!(
            "unknown parameter `{k}`: expected `set` and `difficulty`"
        )));
    }
    let set = Set::parse(q.get("set").map(String::as_str))?;
    let only = match q.get("difficulty").map(String::as_str) {
        None | Some("") => None,
        Some(d) => Some(Difficulty::parse(d).ok_or_else(|| {
            ApiError::bad_request(format!("difficulty `{d}`: expected easy, medium or hard"))
        })?),
    };
    let files = Files::listed(&st.source);
    let out = tokio::task::spawn_blocking(move || {
        st.pages
            .puzzle_list
            .list(&files, set, |name| entry(&files, set, name))
            .into_iter()
            .filter(|e| only.is_none() || e.difficulty == only)
            .map(|e| e.listed)
            .collect()
    })
    .await
    .unwrap_or_default();
    Ok(Json(out))
}

/// A file of the puzzle list as read: its line of the list, and its
/// difficulty as its text states it (a mined file that does not load is
/// still listed under it, with its problem).
#[derive(Clone, Debug)]
struct Entry {
    difficulty: Option<Difficulty>,
    listed: Listed,
}

/// Reads and parses puzzle `file` of `set` for the list.
fn entry(files: &Files, set: Set, file: &str) -> Entry {
    let read = set.read(files, file);
    let difficulty = read.as_ref().ok().and_then(|(_, text)| difficulty_of(text));
    let scn = read.and_then(|(display, text)| files.scenario(set.folder(), &display, &text));
    let listed = match scn {
        Ok(scn) => Listed {
            set: set.key(),
            side: scn.def.puzzle.as_ref().map(|p| p.side),
            difficulty: difficulty.map(Difficulty::key),
            name: if scn.def.name.is_empty() {
                file.to_string()
            } else {
                scn.def.name.clone()
            },
            goal: scn.goal(),
            problem: scn
                .def
                .puzzle
                .is_none()
                .then(|| "not a puzzle (it has no `puzzle` claim)".to_string()),
            file: file.to_string(),
        },
        Err(e) => Listed {
            name: file.to_string(),
            file: file.to_string(),
            set: set.key(),
            goal: None,
            side: None,
            difficulty: None,
            problem: Some(e.message),
        },
    };
    Entry { difficulty, listed }
}

/// The puzzle lists as last read, kept between requests (`Pages`): the
/// page asks for a list at each visit and each change of its filter, which
/// parsed every file of it each time (some 200 mined puzzles). Each file's
/// entry is kept with its [`Stamp`], and
/// read again when the stamp differs: a puzzle edited in the data folder
/// shows its new name or goal on the page's next load, a file added shows,
/// one removed is gone (and forgotten here).
#[derive(Default)]
pub struct ListCache {
    sets: Mutex<Lists>,
}

/// For each folder and set, each file's entry with its stamp when read.
type Lists = HashMap<(Files, Set), HashMap<String, (Stamp, Entry)>>;

impl ListCache {
    /// The entries of `set` in `files`, in the list's order, each file read
    /// by `read` when it is new or changed since it was last read.
    fn list(&self, files: &Files, set: Set, mut read: impl FnMut(&str) -> Entry) -> Vec<Entry> {
        let key = (files.clone(), set);
        // A copy of what is known, so that the lock is not held while files
        // are read (two pages asking at once each read what changed).
        let known = self.lock().get(&key).cloned().unwrap_or_default();
        let mut kept = HashMap::new();
        let mut out = Vec::new();
        for name in set.list(files) {
            // Stamped before it is read: a file changed while it is read is
            // read again next time.
            let stamp = files.stamp(set.folder(), &name);
            let entry = match (stamp, known.get(&name)) {
                (Some(now), Some((then, e))) if now == *then => e.clone(),
                _ => read(&name),
            };
            if let Some(now) = stamp {
                kept.insert(name, (now, entry.clone()));
            }
            out.push(entry);
        }
        self.lock().insert(key, kept);
        out
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lists> {
        // A panic while it was held left whole entries: they are still good.
        self.sets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartRequest {
    /// A listed puzzle, by file name…
    file: Option<String>,
    /// …of this set: `made` (the default) or `mined`.
    set: Option<String>,
    /// Or an uploaded scenario's text…
    text: Option<String>,
    /// …and its file name, for messages.
    name: Option<String>,
}

/// Loads the puzzle and plays its opening choices: the attempt's start.
fn open(st: &AppState, req: StartRequest) -> Result<Inner, ApiError> {
    // A listed puzzle is read where the list came from (the shipped ones
    // for a data folder without scenarios/); an uploaded file as if it lay
    // in the data folder.
    let files = match req.file {
        Some(_) => Files::listed(&st.source),
        None => Files::of(&st.source),
    };
    let set = Set::parse(req.set.as_deref())?;
    let (display, text) = match (req.file, req.text) {
        (Some(f), None) => set.read(&files, &f)?,
        (None, Some(t)) => (req.name.unwrap_or_else(|| "uploaded scenario".into()), t),
        _ => {
            return Err(ApiError::bad_request(
                "send either `file` (a listed puzzle) or `text` (a scenario file's contents)",
            ))
        }
    };
    let scn = files.scenario(set.folder(), &display, &text)?;
    let Some(def) = scn.def.puzzle.clone() else {
        return Err(ApiError::unprocessable(format!(
            "{display}: not a puzzle (it has no `puzzle` claim); to play on from a saved position, open it on the Play page (Play on from a saved position)"
        )));
    };
    let rules = Arc::new(files.rules(&scn, &st.source)?);
    let mut s = scn
        .start(&rules)
        .map_err(|d| ApiError::unprocessable(super::scenarios::problems(&d)))?;
    scn.play(&rules, &mut s)
        .map_err(|d| ApiError::unprocessable(super::scenarios::problems(&d)))?;
    if let Some(o) = s.outcome() {
        return Err(ApiError::unprocessable(format!(
            "{display}: the game is already over there ({} won)",
            o.winner
        )));
    }
    let goal = scn.goal().unwrap_or_default();
    let name = if scn.def.name.is_empty() {
        display.clone()
    } else {
        scn.def.name.clone()
    };
    Ok(Inner::new(rules, def, &s, name, goal, display))
}

/// Runs `f` on attempt `id` off the runtime, the solver's progress
/// published while it runs; a second request while one runs is refused.
async fn with_attempt<F>(st: &AppState, id: &str, f: F) -> Result<Json<AttemptView>, ApiError>
where
    F: FnOnce(&mut Inner, &dyn Fn(u64) -> bool) -> Result<(), ApiError> + Send + 'static,
{
    let attempt = st.pages.puzzles.get(id).ok_or_else(|| {
        ApiError::not_found("no such puzzle attempt (it may have expired): start it again")
    })?;
    let id = id.to_string();
    tokio::task::spawn_blocking(move || {
        let mut inner = attempt.inner.try_lock().map_err(|_| {
            ApiError::conflict(
                "the solver is still thinking about this attempt; wait for its answer",
            )
        })?;
        attempt.thinking.store(true, Ordering::SeqCst);
        attempt.nodes.store(0, Ordering::SeqCst);
        let started = Instant::now();
        let watch = |n: u64| {
            attempt.nodes.store(n, Ordering::Relaxed);
            started.elapsed() < TIME_LIMIT
        };
        let result = f(&mut inner, &watch);
        attempt.thinking.store(false, Ordering::SeqCst);
        result.map(|()| Json(inner.view(&id)))
    })
    .await
    .map_err(|e| ApiError::internal(format!("the solver stopped: {e}")))?
}

async fn start(
    State(st): State<AppState>,
    JsonBody(req): JsonBody<StartRequest>,
) -> Result<Json<AttemptView>, ApiError> {
    let st2 = st.clone();
    let inner = tokio::task::spawn_blocking(move || open(&st2, req))
        .await
        .map_err(|e| ApiError::internal(format!("the puzzle did not load: {e}")))??;
    let (id, _) = st
        .pages
        .puzzles
        .insert(Attempt {
            thinking: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            inner: Mutex::new(inner),
        })
        .map_err(|max| {
            ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                format!("{max} puzzle attempts are open, the most this server keeps; try again when one has been idle for a while"),
            )
        })?;
    with_attempt(&st, &id, |inner, watch| {
        inner.advance(watch);
        Ok(())
    })
    .await
}

async fn show(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<AttemptView>, ApiError> {
    with_attempt(&st, &id, |_, _| Ok(())).await
}

/// The player left the attempt: it is forgotten, and makes room for
/// another. A solver still thinking about it finishes on its own copy.
async fn end(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    if st.pages.puzzles.remove(&id) {
        Ok(axum::http::StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found(
            "no such puzzle attempt (it may have expired)",
        ))
    }
}

async fn choose(
    State(st): State<AppState>,
    Path(id): Path<String>,
    JsonBody(a): JsonBody<Answer>,
) -> Result<Json<AttemptView>, ApiError> {
    with_attempt(&st, &id, move |inner, watch| inner.choose(&a, watch)).await
}

async fn hint(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<AttemptView>, ApiError> {
    with_attempt(&st, &id, |inner, watch| inner.hint(watch)).await
}

async fn reveal(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<AttemptView>, ApiError> {
    with_attempt(&st, &id, |inner, _| {
        inner.reveal();
        Ok(())
    })
    .await
}

#[derive(Serialize)]
struct Progress {
    thinking: bool,
    nodes: u64,
}

async fn progress(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Progress>, ApiError> {
    let a = st
        .pages
        .puzzles
        .get(&id)
        .ok_or_else(|| ApiError::not_found("no such puzzle attempt"))?;
    Ok(Json(Progress {
        thinking: a.thinking.load(Ordering::SeqCst),
        nodes: a.nodes.load(Ordering::Relaxed),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::GameSource;
    use crate::game::engine::notation::outcome_name;

    fn attempt(file: &str) -> Inner {
        let files = Files::Shipped;
        let (display, text) = files.read(PUZZLES, file).unwrap();
        let scn = files.scenario(PUZZLES, &display, &text).unwrap();
        let def = scn.def.puzzle.clone().unwrap();
        let rules = Arc::new(files.rules(&scn, &GameSource::shipped()).unwrap());
        let mut s = scn.start(&rules).unwrap();
        scn.play(&rules, &mut s).unwrap();
        let goal = scn.goal().unwrap();
        Inner::new(rules, def, &s, file.into(), goal, file.into())
    }

    #[test]
    fn following_the_hints_solves_a_winning_puzzle() {
        let mut a = attempt("02_follow_the_money.ron");
        a.advance(&|_| true);
        let mut guard = 0;
        while a.game.ending.is_none() {
            a.hint(&|_| true).unwrap();
            let hint = a.hint.clone().unwrap();
            let mv = hint.strip_prefix("Hint: ").expect(&hint).to_string();
            let v = a.view("x");
            let opt = v
                .options
                .iter()
                .find(|o| outcome_matches(&a, o.index, &mv))
                .unwrap_or_else(|| panic!("no option `{mv}`"));
            a.choose(
                &Answer {
                    index: Some(opt.index),
                    notation: None,
                },
                &|_| true,
            )
            .unwrap();
            guard += 1;
            assert!(guard < 30);
        }
        assert!(
            matches!(a.game.ending, Some(Ending::Solved)),
            "{:?} {:?}",
            a.game.ending,
            a.log
        );
        assert!(a.game.hints > 0);
        assert!(
            a.view("x").solution.is_none(),
            "the solution stays hidden until revealed"
        );
        a.reveal();
        assert!(!a.view("x").solution.unwrap().moves.is_empty());
    }

    fn outcome_matches(a: &Inner, index: usize, name: &str) -> bool {
        let mut options = Vec::new();
        a.game.s.legal(&a.rules, &mut options);
        outcome_name(&a.rules, &a.game.s, options[index]) == name
    }

    #[test]
    fn the_mined_puzzles_are_listed_with_their_difficulty_and_open() {
        let files = Files::Shipped;
        let names = Set::Mined.list(&files);
        assert!(names.len() >= 60, "{}", names.len());
        let mut levels = std::collections::BTreeSet::new();
        for n in &names {
            let (_, text) = Set::Mined.read(&files, n).unwrap();
            levels.insert(difficulty_of(&text).expect(n));
        }
        assert_eq!(levels.len(), 3, "{levels:?}");
        let (display, text) = Set::Mined.read(&files, &names[0]).unwrap();
        let scn = files.scenario(MINED_FOLDER, &display, &text).unwrap();
        assert!(scn.def.puzzle.is_some());
        files.rules(&scn, &GameSource::shipped()).unwrap();
        // A path is no name of the list.
        let e = Set::Mined.read(&files, "../mined/x.ron").unwrap_err();
        assert_eq!(e.status.as_u16(), 403);
        assert_eq!(Set::parse(Some("odd")).unwrap_err().status.as_u16(), 400);
    }

    /// The designer's loop: a puzzle edited in the data folder, the page
    /// reloaded. The list is parsed once; a second request parses no
    /// unchanged file again, while a file edited, added or removed between
    /// requests is seen at the next.
    #[test]
    fn the_puzzle_list_parses_again_only_the_files_that_changed() {
        let tmp = tempfile::Builder::new()
            .prefix("wg-puzzle-list-")
            .tempdir()
            .unwrap();
        let base = tmp.path().to_path_buf();
        let dir = base.join(PUZZLES);
        std::fs::create_dir_all(&dir).unwrap();
        let (_, text) = Files::Shipped
            .read(PUZZLES, "02_follow_the_money.ron")
            .unwrap();
        let named = |name: &str| {
            text.replace(
                "name: \"Follow the money! guards the yellow\"",
                &format!("name: {name:?}"),
            )
        };
        for (file, name) in [("a.ron", "First"), ("b.ron", "Second")] {
            std::fs::write(dir.join(file), named(name)).unwrap();
        }
        let cache = ListCache::default();
        // The names listed, and the files parsed to list them.
        let ask = |files: &Files| {
            let parsed = std::cell::RefCell::new(Vec::<String>::new());
            let list = cache.list(files, Set::Made, |name| {
                parsed.borrow_mut().push(name.to_string());
                entry(files, Set::Made, name)
            });
            let names: Vec<String> = list.into_iter().map(|e| e.listed.name).collect();
            (names, parsed.into_inner())
        };
        let files = Files::Folder(base.clone());
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            ask(&files),
            (s(&["First", "Second"]), s(&["a.ron", "b.ron"]))
        );
        assert_eq!(ask(&files), (s(&["First", "Second"]), s(&[])));
        // Edited: its new name, and only it parsed again.
        std::fs::write(dir.join("b.ron"), named("Second, edited")).unwrap();
        assert_eq!(
            ask(&files),
            (s(&["First", "Second, edited"]), s(&["b.ron"]))
        );
        // Added, then removed (and forgotten).
        std::fs::write(dir.join("c.ron"), named("Third")).unwrap();
        assert_eq!(
            ask(&files),
            (s(&["First", "Second, edited", "Third"]), s(&["c.ron"]))
        );
        std::fs::remove_file(dir.join("a.ron")).unwrap();
        assert_eq!(ask(&files), (s(&["Second, edited", "Third"]), s(&[])));
        assert_eq!(cache.lock()[&(files.clone(), Set::Made)].len(), 2);
        // The shipped copies are parsed once too.
        let (shipped, parsed) = ask(&Files::Shipped);
        assert_eq!(shipped.len(), parsed.len());
        assert_eq!(ask(&Files::Shipped), (shipped, s(&[])));
    }

    #[test]
    fn an_attempt_shows_play_s_table_from_the_player_s_chair_with_both_hands() {
        let mut a = attempt("02_follow_the_money.ron");
        a.advance(&|_| true);
        let v = a.view("x");
        let t = serde_json::to_value(&v.table).unwrap();
        // Play's seat-table fields, for the player's side…
        for field in [
            "hand",
            "hand_sizes",
            "deck_sizes",
            "discards",
            "in_play",
            "track",
        ] {
            assert!(t.get(field).is_some(), "no `{field}` in {t}");
        }
        assert_eq!(t["seat"], serde_json::json!(v.side));
        assert_eq!(t["hand"], t["hands"][v.side.key()]);
        // …and the opponent's hand face up: the position is full-information.
        let theirs = t["hands"][v.opponent.key()].as_array().unwrap();
        assert_eq!(
            theirs.len() as u64,
            t["hand_sizes"][v.opponent.key()].as_u64().unwrap()
        );
        assert!(theirs.iter().all(|c| c["name"].is_string()));
        // Every option is chosen on the table, as in Play.
        assert!(!v.options.is_empty());
        assert!(v.options.iter().all(|o| !o.targets.is_empty()));
    }

    #[test]
    fn a_bad_answer_is_refused_and_the_attempt_is_unchanged() {
        let mut a = attempt("02_follow_the_money.ron");
        a.advance(&|_| true);
        let before = a.view("x").options.len();
        let e = a
            .choose(
                &Answer {
                    index: Some(999),
                    notation: None,
                },
                &|_| true,
            )
            .unwrap_err();
        assert_eq!(e.status.as_u16(), 400);
        let e = a
            .choose(
                &Answer {
                    index: None,
                    notation: Some("fly to the moon".into()),
                },
                &|_| true,
            )
            .unwrap_err();
        assert_eq!(e.status.as_u16(), 400);
        assert_eq!(a.view("x").options.len(), before);
        assert!(a.game.moves.is_empty());
    }
}
