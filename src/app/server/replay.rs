//! Replay: a game log (`crates/formats/src/log.rs`, docs/formats/log.md) stepped through
//! on the page. The server replays the whole log once and sends every step
//! — the choice, who made it, its words, the narration and the table after
//! it, in the shape of Play's view (`table.rs`) — so the page scrubs without
//! asking again. A log is written for both players, so a replay shows
//! everything by default (face-down tokens, both hands); the page says so.
//! Asked for a side's view (`"view": "editor"` or `"nixon"`), every step is
//! the table and the narration as that player saw them at the table, and
//! the steps are the choices that player saw made: the other side's
//! secret choices (a pass in a reaction window, the token Nixon turns up:
//! `DecisionKind::tells_the_other`) are no steps of theirs, their effects
//! told with the step before, as Play tells them (`play/session.rs`). A
//! chance outcome that player did not see (a card dealt to the other side,
//! with explicit deals; a token drawn face down, to the Editor) is told as
//! what happened, never as the log names it (`unseen_chance`).
//!
//! `GET /api/logs` lists the logs the server may open: `logs/` of the data
//! folder (`--data`) and the per-user folder `watergate play` writes to.
//! `POST /api/replay` takes `{ "text": … }` (an uploaded log) or
//! `{ "log": { "folder": …, "name": … } }` (one of the listed ones, by
//! name: no path from the page is ever opened).

use super::error::{ApiError, JsonBody};
use super::play::seat::Faces;
use super::table::{self, Table};
use super::AppState;
use crate::formats::log::{self, LoadedLog};
use crate::formats::narrate::narrate;
use crate::game::engine::notation::describe_choice;
use crate::game::engine::{Actor, ChanceOf, DecisionKind, Event};
use crate::game::model::Side;
use crate::game::observation::Sight;
use crate::game::rules::Rules;
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// The most choices a replayed log may hold (a whole game has a few
/// hundred); beyond it the log is refused rather than sent in megabytes.
pub const MAX_CHOICES: usize = 5_000;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/logs", get(list))
        .route("/replay", post(replay))
}

/// One step of a replay: step 0 is the start (the deal), step k the
/// position after choice k (in a side's view, and after the other side's
/// secret choices that follow it).
#[derive(Serialize)]
pub struct Step {
    /// The log's choice number (0: the start).
    pub index: usize,
    /// `Editor`, `Nixon`, `chance`; `None` for the start.
    pub actor: Option<String>,
    /// The choice as the log writes it.
    pub notation: Option<String>,
    /// The choice in words.
    pub text: Option<String>,
    /// What happened, for a reader who sees everything, or as the side
    /// whose view is shown was told it.
    pub narration: Vec<String>,
    pub table: Table,
}

#[derive(Serialize)]
pub struct Replay {
    pub name: String,
    /// "a new game, seed 7" or "from a position (…)".
    pub start: String,
    pub players: crate::game::model::BySide<String>,
    pub choices: usize,
    /// What the log records ("Editor won (…)", "unfinished").
    pub recorded: String,
    /// Set when the log was written with other data than the server's.
    pub warning: Option<String>,
    /// Set when the replay stopped early or ended otherwise than recorded:
    /// `path:line:col: message`, with the log's line.
    pub problem: Option<super::Problem>,
    pub steps: Vec<Step>,
}

/// Whose eyes a replay is shown through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Eyes {
    /// The whole table: what the log holds (the default).
    #[default]
    Whole,
    /// What the Editor saw.
    Editor,
    /// What Nixon saw.
    Nixon,
}

impl Eyes {
    fn side(self) -> Option<Side> {
        match self {
            Eyes::Whole => None,
            Eyes::Editor => Some(Side::Editor),
            Eyes::Nixon => Some(Side::Nixon),
        }
    }

    fn table(self, r: &Rules, faces: &Faces, s: &crate::game::state::State) -> Table {
        match self.side() {
            // The whole table is drawn from the Editor's chair: her hand
            // below, Nixon's face up beside the board.
            None => table::whole(r, faces, s, Side::Editor),
            Some(side) => table::seen_by(r, faces, s, side),
        }
    }
}

/// Replays `loaded` with `r` through `eyes`: every step that replays, and
/// the first problem (a choice that does not apply, an outcome that
/// differs).
pub fn build(
    r: &Arc<Rules>,
    loaded: &LoadedLog,
    text: &str,
    eyes: Eyes,
) -> Result<Replay, ApiError> {
    let faces = Faces::of(r);
    let l = &loaded.log;
    if l.choices.len() > MAX_CHOICES {
        return Err(ApiError::unprocessable(format!(
            "{}: {} choices; the studio replays logs of at most {MAX_CHOICES}",
            loaded.display,
            l.choices.len()
        )));
    }
    let problem = |d: &crate::diag::Diagnostic| {
        let line = text
            .lines()
            .nth(d.line.saturating_sub(1))
            .filter(|_| d.line > 0)
            .map(str::to_string);
        super::Problem::of(d, line)
    };
    let mut events = Vec::new();
    // The viewer's sight of a new game starts before the deal; of a
    // position, at it (the Editor cannot identify what lies face down).
    let mut sight = Sight::new_game(eyes.side());
    let mut s = loaded.start(r, &mut events).map_err(|d| {
        ApiError::unprocessable(
            d.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    if l.start.position.is_some() {
        sight = Sight::new(&s, eyes.side());
    }
    let mut steps = vec![Step {
        index: 0,
        actor: None,
        notation: None,
        text: None,
        narration: narrate(r, eyes.side(), &sight.see_all(&events)),
        table: eyes.table(r, &faces, &s),
    }];
    let mut stopped = None;
    for i in 0..l.choices.len() {
        let before = s.clone();
        let actor = s.to_move(r);
        events.clear();
        match loaded.apply(r, &mut s, i, &mut events) {
            Ok(choice) => {
                let (who, side) = match actor {
                    Some(Actor::Player(side)) => (side.name().to_string(), side),
                    _ => ("chance".to_string(), Side::Nixon),
                };
                let narration = narrate(r, eyes.side(), &sight.see_all(&events));
                let table = eyes.table(r, &faces, &s);
                let hidden = eyes.side().is_some_and(|viewer| {
                    matches!(actor, Some(Actor::Player(p)) if p != viewer)
                        && !before.decision_kind(r).tells_the_other(choice)
                });
                if hidden {
                    // Never shown to the viewer: what it did belongs to the
                    // step before (there is always one: the start).
                    if let Some(last) = steps.last_mut() {
                        last.narration.extend(narration);
                        last.table = table;
                    }
                    continue;
                }
                // A chance outcome the viewer did not see is told as what
                // happened, not as the log names it (its notation may name
                // the card, `deal nixon.gambit`, and its description its
                // place in a deck or the bag).
                let unseen = match (eyes.side(), actor) {
                    (Some(viewer), Some(Actor::Chance)) => {
                        unseen_chance(&before.decision_kind(r), &events, viewer)
                    }
                    _ => None,
                };
                let (notation, text) = unseen.unwrap_or_else(|| {
                    (
                        l.choices[i].clone(),
                        // Described as the viewer knew it (a face-down
                        // token's kind only to Nixon); the whole table as
                        // the chooser.
                        describe_choice(r, &before, eyes.side().unwrap_or(side), choice),
                    )
                });
                steps.push(Step {
                    index: i + 1,
                    actor: Some(who),
                    notation: Some(notation),
                    text: Some(text),
                    narration,
                    table,
                });
            }
            Err(d) => {
                stopped = Some(problem(&d));
                break;
            }
        }
    }
    if stopped.is_none() {
        if let Err(d) = loaded.check_outcome(&s) {
            stopped = Some(problem(&d));
        }
    }
    Ok(Replay {
        name: loaded.display.clone(),
        start: if l.start.position.is_some() {
            format!("from a position ({})", l.start.name)
        } else {
            format!("a new game, seed {}", l.start.seed)
        },
        players: l.players.clone(),
        choices: l.choices.len(),
        recorded: match l.outcome {
            Some(o) => format!("{} won ({})", o.winner, o.cause.describe()),
            None => "unfinished".to_string(),
        },
        warning: loaded.fingerprint_warning(r),
        problem: stopped,
        steps,
    })
}

/// A chance outcome that `viewer` did not see, as their replay tells it
/// (a notation and words naming neither the card nor its place); `None`
/// when they saw it whole. With explicit deals chance deals each card: one
/// dealt into the other side's hand is theirs alone (one drawn to be
/// played at once is everyone's). A token drawn face down is hidden from
/// the Editor only (R4.3). A card discarded at random, or coming out on
/// top of a reshuffled deck, is played or laid face up: everyone sees it.
/// The step's narration says what the viewer did see (`Sight`).
fn unseen_chance(kind: &DecisionKind, events: &[Event], viewer: Side) -> Option<(String, String)> {
    let DecisionKind::Chance { what, .. } = kind else {
        return None;
    };
    match what {
        ChanceOf::CardDrawn => {
            if events.iter().any(|e| matches!(e, Event::DrewToPlay { .. })) {
                return None;
            }
            let into = events.iter().find_map(|e| match e {
                Event::CardsDrawn { side, .. } => Some(*side),
                _ => None,
            });
            match into {
                Some(side) if side == viewer => None,
                Some(Side::Editor) => Some(("deal".into(), "a card dealt to the Editor".into())),
                Some(Side::Nixon) => Some(("deal".into(), "a card dealt to Nixon".into())),
                // No hand took it, and it was not played: told of nobody's.
                None => Some(("deal".into(), "a card drawn".into())),
            }
        }
        ChanceOf::EvidenceDrawn => {
            let face_down = events
                .iter()
                .any(|e| matches!(e, Event::EvidenceDrawn { face_up: false, .. }));
            (face_down && viewer == Side::Editor).then(|| {
                (
                    "draw".into(),
                    "a token drawn from the bag, face down".into(),
                )
            })
        }
        ChanceOf::CardDiscarded | ChanceOf::TopOfReshuffledDeck => None,
    }
}

/// Where listed logs come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Folder {
    /// `logs/` in the data folder.
    Data,
    /// The per-user folder `watergate play` writes to.
    User,
}

fn folder_path(st: &AppState, f: Folder) -> Option<PathBuf> {
    match f {
        Folder::Data => st.source.data.as_ref().map(|d| d.join("logs")),
        Folder::User => user_log_folder(),
    }
}

#[cfg(feature = "cli")]
fn user_log_folder() -> Option<PathBuf> {
    crate::app::cli::play::log_folder().ok()
}

#[cfg(not(feature = "cli"))]
fn user_log_folder() -> Option<PathBuf> {
    None
}

#[derive(Serialize)]
struct Listed {
    folder: Folder,
    name: String,
    bytes: u64,
}

async fn list(State(st): State<AppState>) -> Json<Vec<Listed>> {
    let mut out = Vec::new();
    for f in [Folder::Data, Folder::User] {
        let Some(dir) = folder_path(&st, f) else {
            continue;
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut here: Vec<Listed> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let meta = e.metadata().ok()?;
                (meta.is_file() && name.ends_with(".ron")).then_some(Listed {
                    folder: f,
                    name,
                    bytes: meta.len(),
                })
            })
            .collect();
        here.sort_by(|a, b| a.name.cmp(&b.name));
        // A folder of thousands of logs: the newest names sort last.
        let skip = here.len().saturating_sub(500);
        out.extend(here.into_iter().skip(skip));
    }
    Json(out)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplayRequest {
    /// An uploaded log's text.
    text: Option<String>,
    /// Its file name, for messages.
    name: Option<String>,
    /// One of the listed logs.
    log: Option<LogRef>,
    /// `whole` (the default), `editor` or `nixon`: whose view each step is.
    #[serde(default)]
    view: Eyes,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LogRef {
    folder: Folder,
    name: String,
}

async fn replay(
    State(st): State<AppState>,
    JsonBody(req): JsonBody<ReplayRequest>,
) -> Result<Json<Replay>, ApiError> {
    let eyes = req.view;
    let (display, text) = match (req.text, req.log) {
        (Some(text), None) => (req.name.unwrap_or_else(|| "uploaded log".into()), text),
        (None, Some(l)) => {
            let dir = folder_path(&st, l.folder).ok_or_else(|| {
                ApiError::not_found(match l.folder {
                    Folder::Data => {
                        "there is no log folder of the data: the studio runs without --data"
                    }
                    Folder::User => {
                        "there is no per-user log folder here (`watergate play` finds none either)"
                    }
                })
            })?;
            let path = super::paths::file_in(&dir, &l.name, "the log folder")?;
            let text = crate::data::user_file::read_user_text(&path)
                .map_err(|e| ApiError::not_found(format!("the log `{}`: {e}", l.name)))?;
            (l.name, text)
        }
        _ => return Err(ApiError::bad_request(
            "send either `text` (a log's contents) or `log` (`folder` and `name` of a listed log)",
        )),
    };
    let rules = st.current_rules();
    let source = st.source.clone();
    tokio::task::spawn_blocking(move || {
        let lines = |d: crate::diag::Diagnostics| {
            d.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        };
        let loaded = log::from_text(&display, &text, PathBuf::new())
            .map_err(|d| ApiError::unprocessable(lines(d)))?;
        // A game played on from a scenario with edits replays with them
        // (a log's edits name no file: the loader refuses those).
        let rules = if loaded.has_edits() {
            let ds = source
                .dataset()
                .map_err(|d| ApiError::unprocessable(lines(d)))?;
            std::sync::Arc::new(
                loaded
                    .rules(&ds)
                    .map_err(|d| ApiError::unprocessable(lines(d)))?,
            )
        } else {
            rules
        };
        build(&rules, &loaded, &text, eyes).map(Json)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the replay stopped: {e}")))?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::agent::{random::RandomAgent, Agent};

    /// A whole logged game between two random agents.
    fn logged_game(r: &Rules, seed: u64) -> (String, crate::game::state::State) {
        let mut lg = log::GameLog::new_game(r, seed, log::players("random", "random"));
        let mut s = crate::game::state::State::new(r, seed);
        let mut agents =
            crate::game::model::BySide::new(RandomAgent::new(seed + 1), RandomAgent::new(seed + 2));
        let mut options = Vec::new();
        while let Some(actor) = s.legal(r, &mut options) {
            let c = match actor {
                Actor::Player(side) => {
                    agents[side].decide(&crate::game::view::View::new(r, &s, side), &options)
                }
                Actor::Chance => options[0],
            };
            lg.record(r, &s, c);
            s.apply(r, c).unwrap();
        }
        lg.outcome = s.outcome();
        (lg.to_text(), s)
    }

    #[test]
    fn a_replay_has_a_step_per_choice_and_ends_as_the_game_did() {
        let r = Arc::new(crate::data::shipped());
        let (text, end) = logged_game(&r, 5);
        let loaded = log::from_text("game.ron", &text, PathBuf::new()).unwrap();
        let rp = build(&r, &loaded, &text, Eyes::Whole).unwrap();
        assert!(rp.problem.is_none(), "{:?}", rp.problem.map(|p| p.message));
        assert_eq!(rp.steps.len(), loaded.log.choices.len() + 1);
        let last = rp.steps.last().unwrap();
        assert_eq!(
            last.table.outcome.as_ref().map(|o| o.winner),
            end.outcome().map(|o| o.winner)
        );
        // The whole game is shown: both hands and every track token's kind.
        let hands = rp.steps[1].table.hands.as_ref().expect("both hands");
        assert!(hands.editor.len() + hands.nixon.len() > 0);
        assert!(rp
            .steps
            .iter()
            .all(|s| s.table.shown.open.track.iter().all(|t| t.kind.is_some())));
    }

    #[test]
    fn a_side_s_replay_shows_the_table_as_that_side_saw_it() {
        let r = Arc::new(crate::data::shipped());
        let (text, _) = logged_game(&r, 5);
        let loaded = log::from_text("game.ron", &text, PathBuf::new()).unwrap();
        let whole = build(&r, &loaded, &text, Eyes::Whole).unwrap();
        let editor = build(&r, &loaded, &text, Eyes::Editor).unwrap();
        let mut hidden = 0;
        // A step's table is the one after the last choice it tells (the
        // other side's secret choices after it are folded into it).
        let ends = editor
            .steps
            .iter()
            .skip(1)
            .map(|s| s.index - 1)
            .chain([whole.steps.len() - 1]);
        for (e, end) in editor.steps.iter().zip(ends) {
            let w = &whole.steps[end];
            assert_eq!(e.table.seat, Side::Editor);
            assert!(e.table.hands.is_none(), "no other hand in a side's view");
            let json = serde_json::to_value(&e.table).unwrap();
            assert!(json.get("hands").is_none());
            // Her own hand, the one the whole table shows for her.
            let wh = serde_json::to_value(&w.table.hands.as_ref().unwrap().editor).unwrap();
            assert_eq!(json["hand"], wh);
            hidden += e
                .table
                .shown
                .open
                .track
                .iter()
                .filter(|t| t.kind.is_none())
                .count();
        }
        // R4.3: the Editor does not know the kinds face down on the track.
        assert!(hidden > 0, "no face-down token was ever hidden from her");
    }

    /// The secret choices of each side in `loaded` (`tells_the_other`).
    fn secret_choices(r: &Rules, loaded: &LoadedLog) -> crate::game::model::BySide<usize> {
        let mut events = Vec::new();
        let mut s = loaded.start(r, &mut events).unwrap();
        let mut secret = crate::game::model::BySide::new(0, 0);
        for i in 0..loaded.log.choices.len() {
            let kind = s.decision_kind(r);
            let actor = s.to_move(r);
            let c = loaded.apply(r, &mut s, i, &mut events).unwrap();
            if let Some(Actor::Player(side)) = actor {
                if !kind.tells_the_other(c) {
                    secret[side] += 1;
                }
            }
        }
        secret
    }

    /// A side's view lists the choices that side saw made: its own passes,
    /// the other side's plays, not the other side's passes in reaction
    /// windows (nor the token Nixon turns up), whose effects are told with
    /// the step before. Game 22 has passes of each side's.
    #[test]
    fn a_side_s_replay_lists_only_the_choices_that_side_saw() {
        let r = Arc::new(crate::data::shipped());
        let (text, _) = logged_game(&r, 22);
        let loaded = log::from_text("game.ron", &text, PathBuf::new()).unwrap();
        let secret = secret_choices(&r, &loaded);
        let whole = build(&r, &loaded, &text, Eyes::Whole).unwrap();
        let passes = |rp: &Replay, who: &str| {
            rp.steps
                .iter()
                .filter(|s| {
                    s.actor.as_deref() == Some(who)
                        && s.text.as_deref() == Some("pass (no reaction)")
                })
                .count()
        };
        for (eyes, me, other) in [
            (Eyes::Editor, Side::Editor, Side::Nixon),
            (Eyes::Nixon, Side::Nixon, Side::Editor),
        ] {
            assert!(passes(&whole, other.name()) > 0, "no pass of {other:?}'s");
            let seen = build(&r, &loaded, &text, eyes).unwrap();
            assert_eq!(seen.steps.len(), whole.steps.len() - secret[other]);
            assert_eq!(passes(&seen, other.name()), 0, "{me:?} sees {other:?} pass");
            assert_eq!(passes(&seen, me.name()), passes(&whole, me.name()));
            assert!(seen.steps.windows(2).all(|w| w[0].index < w[1].index));
            // The other side's plays are all there.
            let plays = |rp: &Replay| {
                rp.steps
                    .iter()
                    .filter(|s| {
                        s.actor.as_deref() == Some(other.name())
                            && s.text.as_ref().is_some_and(|t| t.starts_with("play "))
                    })
                    .map(|s| s.index)
                    .collect::<Vec<_>>()
            };
            assert_eq!(plays(&seen), plays(&whole));
            // Nothing told is lost: the lines of a hidden choice are the
            // step before's.
            let lines = |rp: &Replay| rp.steps.iter().map(|s| s.narration.len()).sum::<usize>();
            let mut all = Sight::new_game(Some(me));
            let mut events = Vec::new();
            let mut s = loaded.start(&r, &mut events).unwrap();
            let mut told = narrate(&r, Some(me), &all.see_all(&events)).len();
            for i in 0..loaded.log.choices.len() {
                events.clear();
                loaded.apply(&r, &mut s, i, &mut events).unwrap();
                told += narrate(&r, Some(me), &all.see_all(&events)).len();
            }
            assert_eq!(lines(&seen), told);
        }
    }

    /// A game from a saved position with explicit deals (chance deals each
    /// card), its log naming each outcome as a line of play writes it
    /// (`deal nixon.gambit`, as the solver and the OpenSpiel game name
    /// them): in one side's replay no chance step names a card dealt to the
    /// other side (that side alone saw it), nor the kind of a token drawn
    /// face down to the Editor, while the viewer's own cards are named; the
    /// whole table names them all.
    #[test]
    fn a_side_s_replay_names_no_card_dealt_to_the_other_side() {
        use crate::game::engine::notation::outcome_name;
        let r = Arc::new(crate::data::shipped());
        let mut s = crate::game::state::State::new_explicit(&r);
        let mut lg =
            log::GameLog::from_position(&r, &s, "explicit deals", log::players("random", "random"));
        let mut agents = crate::game::model::BySide::new(RandomAgent::new(3), RandomAgent::new(4));
        // The cards chance put into each hand (a card drawn to be played at
        // once is everyone's to see).
        let mut dealt = crate::game::model::BySide::new(Vec::new(), Vec::new());
        let mut options = Vec::new();
        let mut n = 0usize;
        while let Some(actor) = s.legal(&r, &mut options) {
            let c = match actor {
                Actor::Player(side) => {
                    agents[side].decide(&crate::game::view::View::new(&r, &s, side), &options)
                }
                Actor::Chance => options[(n * 7) % options.len()],
            };
            n += 1;
            lg.choices.push(outcome_name(&r, &s, c));
            let held = crate::game::model::BySide::from_fn(|side| s.hand(side).to_vec());
            s.apply(&r, c).unwrap();
            if actor == Actor::Chance {
                for side in [Side::Editor, Side::Nixon] {
                    let new = s
                        .hand(side)
                        .iter()
                        .filter(|card| !held[side].contains(card));
                    dealt[side].extend(new.map(|&card| r.card(card).clone()));
                }
            }
        }
        lg.outcome = s.outcome();
        let text = lg.to_text();
        let loaded = log::from_text("game.ron", &text, PathBuf::new()).unwrap();
        let names = |cards: &[crate::game::rules::Card]| -> Vec<String> {
            cards
                .iter()
                .flat_map(|c| [c.id.clone(), c.name.clone()])
                .collect()
        };
        let chance_words = |rp: &Replay| -> Vec<String> {
            rp.steps
                .iter()
                .filter(|st| st.actor.as_deref() == Some("chance"))
                .map(|st| format!("{:?} {:?}", st.notation, st.text))
                .collect()
        };
        let names_any = |words: &[String], cards: &[String]| {
            words
                .iter()
                .filter(|w| cards.iter().any(|c| w.contains(c.as_str())))
                .cloned()
                .collect::<Vec<_>>()
        };
        let whole = build(&r, &loaded, &text, Eyes::Whole).unwrap();
        assert!(
            whole.problem.is_none(),
            "{:?}",
            whole.problem.map(|p| p.message)
        );
        let (hers, his) = (names(&dealt.editor), names(&dealt.nixon));
        assert!(!names_any(&chance_words(&whole), &his).is_empty());
        for (eyes, mine, theirs) in [(Eyes::Editor, &hers, &his), (Eyes::Nixon, &his, &hers)] {
            let seen = build(&r, &loaded, &text, eyes).unwrap();
            let words = chance_words(&seen);
            assert_eq!(names_any(&words, theirs), Vec::<String>::new(), "{eyes:?}");
            assert!(!names_any(&words, mine).is_empty(), "{eyes:?}: {words:?}");
            // A token drawn face down (`draw blue` in the log): its kind
            // is Nixon's to know, not hers (R4.3).
            let face_down = words.iter().filter(|w| w.contains("face down")).count();
            let kinds = words.iter().filter(|w| w.contains("\"draw ")).count();
            match eyes {
                Eyes::Editor => assert!(face_down > 0, "{words:?}"),
                _ => assert!(face_down == 0 && kinds > 0, "{words:?}"),
            }
        }
    }

    #[test]
    fn a_choice_that_does_not_apply_stops_the_replay_at_its_line() {
        let r = Arc::new(crate::data::shipped());
        let (text, _) = logged_game(&r, 9);
        let loaded = log::from_text("game.ron", &text, PathBuf::new()).unwrap();
        let first = loaded.log.choices[0].clone();
        let bad = text.replacen(&format!("\"{first}\""), "\"no-such-move\"", 1);
        let loaded = log::from_text("game.ron", &bad, PathBuf::new()).unwrap();
        let rp = build(&r, &loaded, &bad, Eyes::Whole).unwrap();
        let p = rp.problem.expect("the replay stops");
        assert!(p.message.contains("choice 1"), "{}", p.message);
        assert!(p.source_line.unwrap().contains("no-such-move"));
        assert_eq!(rp.steps.len(), 1);
    }
}
