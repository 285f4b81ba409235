//! One game in progress, as OpenSpiel plays it: every random event a chance
//! node, every option an action id, and for each player the record of what
//! they have seen, from which their information state is made.
//!
//! Two ways to deal (the game's `chance` parameter):
//! - `explicit`: every card drawn and every token drawn is chance's
//!   decision (`State::new_explicit`); a game is a function of its actions.
//! - `seeded`: one chance node at the root picks a seed among `seeds`, and
//!   the engine's generator deals from it as `watergate simulate` does with
//!   that seed; the other random events are then the generator's too.

use crate::game::{Game, Loaded};
use crate::observe;
use crate::seen::{Record, Said, Step};
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use watergate_core::data::GameSource;
use watergate_core::game::engine::notation::{format_choice, outcome_name};
use watergate_core::game::engine::{Actor, Choice, DecisionKind, Event};
use watergate_core::game::model::{BySide, CardId, Side};
use watergate_core::game::observation::Sight;
use watergate_core::game::setup::Setup;
use watergate_core::game::state::State;
use watergate_core::game::view::View;
use watergate_players::agent::AgentSpec;

/// OpenSpiel's player ids.
const CHANCE: i64 = -1;
const TERMINAL: i64 = -4;

/// A whole-number argument as Python gives it: an `int` of any size, or
/// anything with `__index__` (a NumPy integer); another type raises
/// TypeError. The method that takes it checks its range and says what it
/// expects (ValueError), where a fixed-width argument raised OverflowError
/// for a number beyond the width.
pub enum Whole {
    Fits(i128),
    /// Beyond ±2^127, out of every range here: the number as Python writes it.
    Huge(String),
}

impl<'py> FromPyObject<'_, 'py> for Whole {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Whole> {
        let py = obj.py();
        // The 64-bit conversion first: it is the common case and the cheap one.
        let wide = match obj.extract::<i64>() {
            Ok(n) => return Ok(Whole::Fits(n.into())),
            Err(e) if e.is_instance_of::<PyOverflowError>(py) => obj.extract::<i128>(),
            Err(e) => return Err(e),
        };
        match wide {
            Ok(n) => Ok(Whole::Fits(n)),
            Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
                Ok(Whole::Huge(obj.str()?.to_string()))
            }
            Err(e) => Err(e),
        }
    }
}

impl std::fmt::Display for Whole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Whole::Fits(n) => write!(f, "{n}"),
            Whole::Huge(s) => f.write_str(s),
        }
    }
}

impl Whole {
    /// The number, if it is a `T`.
    fn to<T: TryFrom<i128>>(&self) -> Option<T> {
        match self {
            Whole::Fits(n) => T::try_from(*n).ok(),
            Whole::Huge(_) => None,
        }
    }

    /// A seed: a whole number from 0 to 2^64 - 1 (ValueError otherwise,
    /// naming the argument).
    fn seed(&self, name: &str) -> PyResult<u64> {
        self.to().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{name}: expected a seed: a whole number from 0 to {}, got {self}",
                u64::MAX
            ))
        })
    }
}

/// A game in progress.
#[pyclass(module = "watergate._engine", skip_from_py_object)]
#[derive(Clone)]
pub struct Match {
    game: Arc<Loaded>,
    /// `None` while the root's seed is still to be drawn (`seeded`).
    state: Option<State>,
    /// With `seeded`: how many seeds the root chooses among.
    seeds: u32,
    /// What each player has seen, oldest first: their information state.
    seen: Record,
    /// The hand each player last saw written in `seen`.
    hands: BySide<Vec<CardId>>,
}

/// The most seeds a seeded game's root chooses among: its legal actions and
/// chance outcomes are listed whole, one per seed (at `u32::MAX` that was
/// 34 GB, and the process aborted).
pub const MAX_SEEDS: u32 = 1 << 20;

/// A state as bytes (pickle, OpenSpiel's `serialize`): the position as a
/// setup, and what each player has seen.
#[derive(Serialize, Deserialize)]
struct Saved {
    /// The game was loaded from files in memory (`load_files`).
    #[serde(default)]
    in_memory: bool,
    data: Option<std::path::PathBuf>,
    variant: Option<std::path::PathBuf>,
    fingerprint: u64,
    setup: Option<Setup>,
    seeds: u32,
    /// Each player's record, a line an event (or a choice, or their hand
    /// after a draw), oldest first.
    seen: BySide<Vec<String>>,
    hands: BySide<Vec<CardId>>,
}

impl Match {
    fn new(game: Arc<Loaded>, state: Option<State>, seeds: u32, events: &[Event]) -> Match {
        let mut m = Match {
            game,
            state: None,
            seeds,
            seen: Record::default(),
            hands: BySide::default(),
        };
        if let Some(s) = state {
            let sights = BySide::from_fn(|side| Sight::new_game(Some(side)));
            m.state = Some(s);
            m.record(sights, events.to_vec(), None);
        }
        m
    }

    fn rules(&self) -> &watergate_core::game::rules::Rules {
        &self.game.rules
    }

    /// The options and who takes them; `None` when the game is over. The
    /// root of a seeded game is chance's, with one option per seed.
    fn decision(&self) -> Option<(Actor, Vec<Choice>)> {
        let Some(s) = &self.state else {
            return Some((Actor::Chance, vec![]));
        };
        let mut options = Vec::new();
        let actor = s.legal(self.rules(), &mut options)?;
        Some((actor, options))
    }

    /// The id of an option: a player's by the action space, a chance
    /// outcome by its place.
    fn id_of(&self, actor: Actor, options: &[Choice], i: usize) -> PyResult<i64> {
        match actor {
            Actor::Chance => Ok(i as i64),
            Actor::Player(_) => self
                .game
                .actions
                .id(options[i])
                .map(|id| id as i64)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "the option {:?} has no action id (a script offers more than {} branches)",
                        options[i],
                        crate::actions::MAX_BRANCHES
                    ))
                }),
        }
    }

    /// Adds `events` (and the choice that caused them) to the players'
    /// record, with the sights they had before; narrated when read.
    fn record(&mut self, sights: BySide<Sight>, events: Vec<Event>, said: Option<Said>) {
        let Some(s) = &self.state else { return };
        let hands = BySide::from_fn(|side| {
            let hand = s.hand(side);
            (hand != self.hands[side].as_slice()).then(|| hand.to_vec())
        });
        for side in Side::BOTH {
            if let Some(hand) = &hands[side] {
                self.hands[side].clone_from(hand);
            }
        }
        self.seen.push(Step {
            said,
            sights,
            events,
            hands,
        });
    }

    fn player(&self, player: &Whole) -> PyResult<Side> {
        match player.to::<i64>() {
            Some(0) => Ok(Side::Editor),
            Some(1) => Ok(Side::Nixon),
            _ => Err(PyIndexError::new_err(format!(
                "player {player}: the players are 0 (the Editor) and 1 (Nixon)"
            ))),
        }
    }

    fn saved(&self) -> Saved {
        Saved {
            in_memory: self.game.source.is_none(),
            data: self.game.source.as_ref().and_then(|s| s.data.clone()),
            variant: self.game.source.as_ref().and_then(|s| s.variant.clone()),
            fingerprint: self.game.rules.fingerprint,
            setup: self.state.as_ref().map(State::to_setup),
            seeds: self.seeds,
            seen: BySide::from_fn(|side| self.seen.lines(&self.game.rules, side)),
            hands: self.hands.clone(),
        }
    }

    /// `action_to_string`: the action as `player` would say it now. A
    /// player that does not exist (not 0, 1, or -1 for chance), or an
    /// action id outside the game's numbering for that player, raises
    /// ValueError; an id in it but not legal now is named by its block.
    fn name_of(&self, player: &Whole, action: &Whole) -> PyResult<String> {
        let chance = match player.to::<i64>() {
            Some(CHANCE) => true,
            Some(0 | 1) => false,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "action_to_string: player {player}: the players are 0 (the Editor) and 1 (Nixon), and -1 for chance"
                )))
            }
        };
        let outcomes = if self.state.is_none() {
            self.seeds as usize
        } else if chance {
            self.game.actions.max_chance_outcomes()
        } else {
            self.game.actions.size()
        };
        let Some(index) = action.to::<usize>().filter(|&a| a < outcomes) else {
            let what = if self.state.is_none() {
                "the root's seeds are"
            } else if chance {
                "chance's outcomes are"
            } else {
                "the action ids are"
            };
            return Err(PyValueError::new_err(format!(
                "action_to_string: action {action}: {what} 0 to {}",
                outcomes.saturating_sub(1)
            )));
        };
        let Some(s) = &self.state else {
            return Ok(format!("seed {action}"));
        };
        let r = self.rules();
        if chance {
            let mut options = Vec::new();
            if s.legal(r, &mut options) == Some(Actor::Chance) {
                if let Some(c) = options.get(index) {
                    return Ok(outcome_name(r, s, *c));
                }
            }
            return Ok(format!("chance {action}"));
        }
        match self.game.actions.choice(index) {
            Some(c) => Ok(format_choice(r, s, c)),
            None => Err(PyValueError::new_err(format!(
                "action_to_string: action {action} names no option of this game"
            ))),
        }
    }

    /// `apply_action` once the match is borrowed.
    fn apply(&mut self, action: Whole) -> PyResult<()> {
        let Some((actor, options)) = self.decision() else {
            return Err(PyValueError::new_err(format!(
                "action {action} is not legal now: the game is over"
            )));
        };
        if self.state.is_none() {
            let Some(seed) = action.to::<u64>().filter(|&a| a < u64::from(self.seeds)) else {
                return Err(PyValueError::new_err(format!(
                    "action {action} is not legal now: the root draws a seed from 0 to {}",
                    self.seeds - 1
                )));
            };
            let mut events = Vec::new();
            let s = State::new_observed(self.rules(), seed, &mut events);
            let sights = BySide::from_fn(|side| Sight::new_game(Some(side)));
            self.state = Some(s);
            self.record(sights, events, None);
            return Ok(());
        }
        let id = action.to::<i64>();
        let found = id.and_then(|id| {
            (0..options.len()).find(|&i| self.id_of(actor, &options, i).ok() == Some(id))
        });
        let Some(i) = found else {
            let s = self.state.as_ref().expect("a state");
            let r = self.rules();
            return Err(PyValueError::new_err(match actor {
                Actor::Chance => format!(
                    "action {action} is not legal now: chance's outcomes are 0 to {}",
                    options.len().saturating_sub(1)
                ),
                Actor::Player(_) => match action.to().and_then(|a| self.game.actions.choice(a)) {
                    Some(c) => format!(
                        "action {action} ({}) is not legal now",
                        format_choice(r, s, c)
                    ),
                    None => format!(
                        "action {action} is not legal now: the action ids are 0 to {}",
                        self.game.actions.size() - 1
                    ),
                },
            }));
        };
        let choice = options[i];
        let s = self.state.as_mut().expect("a state");
        let sights = BySide::from_fn(|side| Sight::new(s, Some(side)));
        let said = match actor {
            Actor::Player(side) => Some(Said {
                by: side,
                line: format!("{side}: {}", format_choice(&self.game.rules, s, choice)),
                public: s.decision_kind(&self.game.rules).tells_the_other(choice),
            }),
            Actor::Chance => None,
        };
        let mut events = Vec::new();
        s.apply_observed(&self.game.rules, choice, &mut events)
            .map_err(|e| PyValueError::new_err(format!("action {action}: {e}")))?;
        self.record(sights, events, said);
        Ok(())
    }

    /// The view of `side` (`None` before a seeded game's seed is drawn).
    fn view(&self, side: Side) -> Option<View<'_>> {
        self.state
            .as_ref()
            .map(|s| View::new(self.rules(), s, side))
    }
}

/// A state from its bytes (`Match.__reduce__`, OpenSpiel's `deserialize`).
#[pyfunction]
pub fn restore_match(bytes: &[u8]) -> PyResult<Match> {
    let saved: Saved = serde_json::from_slice(bytes)
        .map_err(|e| PyValueError::new_err(format!("not a saved Watergate state: {e}")))?;
    let source = (!saved.in_memory).then_some(GameSource {
        data: saved.data,
        variant: saved.variant,
    });
    let game = Loaded::find(source, None, saved.fingerprint, "state")?;
    if !(1..=MAX_SEEDS).contains(&saved.seeds) && saved.setup.is_none() {
        return Err(PyValueError::new_err(format!(
            "not a valid saved state: seeds {}: expected 1 to {MAX_SEEDS}",
            saved.seeds
        )));
    }
    let state = match saved.setup {
        None => None,
        Some(setup) => {
            let s = State::from_setup(&game.rules, setup).map_err(|problems| {
                let why: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                PyValueError::new_err(format!("not a valid position: {}", why.join("; ")))
            })?;
            playable(&game.rules, &s)
                .map_err(|why| PyValueError::new_err(format!("not a valid position: {why}")))?;
            Some(s)
        }
    };
    Ok(Match {
        game,
        state,
        seeds: saved.seeds,
        seen: Record::restored(saved.seen),
        hands: saved.hands,
    })
}

/// Whether a restored position can go on as OpenSpiel expects: over with
/// a winner, or at a decision with options of which the first can be
/// taken. `Setup::problems` checks each part; a saved state from outside
/// can still put them together so that nobody can ever act (an initial
/// phase with no step on its stack), where every action would fail.
fn playable(rules: &watergate_core::game::rules::Rules, s: &State) -> Result<(), String> {
    let mut options = Vec::new();
    match s.legal(rules, &mut options) {
        None => Ok(()),
        Some(_) if options.is_empty() => Err("no player and no chance can act in it".into()),
        Some(_) => {
            let mut next = s.clone();
            next.apply(rules, options[0])
                .map(|_| ())
                .map_err(|e| format!("its first option cannot be taken: {e}"))
        }
    }
}

#[pymethods]
impl Match {
    /// A new game of `game`: `chance` is `"explicit"` (every random event a
    /// chance node) or `"seeded"` (a root chance node picks one of `seeds`
    /// seeds for the engine's generator).
    #[new]
    #[pyo3(
        signature = (game, chance="explicit", seeds=Whole::Fits(1000)),
        text_signature = "(game, chance=\"explicit\", seeds=1000)"
    )]
    fn py_new(game: &Game, chance: &str, seeds: Whole) -> PyResult<Match> {
        let g = game.loaded.clone();
        match chance {
            "explicit" => {
                let mut events = Vec::new();
                let s = State::new_explicit_observed(&g.rules, &mut events);
                Ok(Match::new(g, Some(s), 0, &events))
            }
            "seeded" => match seeds.to::<u32>() {
                Some(n) if (1..=MAX_SEEDS).contains(&n) => Ok(Match::new(g, None, n, &[])),
                _ => Err(PyValueError::new_err(format!(
                    "seeds: expected 1 to {MAX_SEEDS}, got {seeds}"
                ))),
            },
            other => Err(PyValueError::new_err(format!(
                "chance {other:?}: expected \"explicit\" or \"seeded\""
            ))),
        }
    }

    /// The game this match plays.
    #[getter]
    fn game(&self) -> Game {
        Game {
            loaded: self.game.clone(),
        }
    }

    /// How it deals: `"explicit"` or `"seeded"`.
    #[getter]
    fn chance(&self) -> &'static str {
        if self.seeds == 0 {
            "explicit"
        } else {
            "seeded"
        }
    }

    /// With `"seeded"` chance, how many seeds the root chooses among;
    /// `None` with `"explicit"`.
    #[getter]
    fn seeds(&self) -> Option<u32> {
        (self.seeds > 0).then_some(self.seeds)
    }

    /// 0 (the Editor) or 1 (Nixon) to move, -1 for chance, -4 when over.
    fn current_player(&self) -> i64 {
        match self.decision() {
            None => TERMINAL,
            Some((Actor::Chance, _)) => CHANCE,
            Some((Actor::Player(side), _)) => side.index() as i64,
        }
    }

    fn is_terminal(&self) -> bool {
        self.decision().is_none()
    }

    fn is_chance_node(&self) -> bool {
        matches!(self.decision(), Some((Actor::Chance, _)))
    }

    /// The legal actions of the player to move, ascending.
    fn legal_actions(&self) -> PyResult<Vec<i64>> {
        let Some((actor, options)) = self.decision() else {
            return Ok(vec![]);
        };
        if self.state.is_none() {
            return Ok((0..self.seeds as i64).collect());
        }
        let mut ids = (0..options.len())
            .map(|i| self.id_of(actor, &options, i))
            .collect::<PyResult<Vec<_>>>()?;
        ids.sort_unstable();
        Ok(ids)
    }

    /// At a chance node: each outcome and its probability.
    fn chance_outcomes(&self) -> Vec<(i64, f64)> {
        let Some((Actor::Chance, options)) = self.decision() else {
            return vec![];
        };
        let Some(s) = &self.state else {
            let p = 1.0 / self.seeds as f64;
            return (0..self.seeds as i64).map(|i| (i, p)).collect();
        };
        let weights = match s.decision_kind(self.rules()) {
            DecisionKind::Chance { weights, .. } if weights.len() == options.len() => weights,
            _ => vec![1; options.len()],
        };
        let total: u64 = weights.iter().map(|w| *w as u64).sum();
        weights
            .iter()
            .enumerate()
            .map(|(i, w)| (i as i64, *w as f64 / total as f64))
            .collect()
    }

    /// Takes action `action`; an action that is not legal now (any
    /// integer, or any on a finished game) raises ValueError and leaves
    /// the state as it was.
    fn apply_action(slf: &Bound<'_, Self>, action: Whole) -> PyResult<()> {
        // Another thread may be reading this match with the GIL released
        // (`agent_action` thinking): PyO3 said only "Already borrowed".
        slf.try_borrow_mut()
            .map_err(|_| {
                PyRuntimeError::new_err(format!(
                    "action {action}: this match is busy in another thread (an agent_action is thinking on it); wait for it to return, or play on a clone"
                ))
            })?
            .apply(action)
    }

    /// The action in the engine's notation (`editor.deep_throat
    /// value`, `deal nixon.howard_hunt`, `draw blue`), as `player` (0, 1,
    /// or -1 for chance) would say it now; an id not legal now is named by
    /// its block, one outside the game's numbering raises ValueError.
    fn action_to_string(&self, player: Whole, action: Whole) -> PyResult<String> {
        self.name_of(&player, &action)
    }

    /// +1 for the winner and -1 for the loser once the game is over; 0 before.
    fn returns(&self) -> Vec<f64> {
        match self.state.as_ref().and_then(|s| s.outcome()) {
            None => vec![0.0, 0.0],
            Some(o) => Side::BOTH
                .iter()
                .map(|side| if *side == o.winner { 1.0 } else { -1.0 })
                .collect(),
        }
    }

    /// The winner (`"editor"`, `"nixon"`) and the cause, once over.
    fn outcome(&self) -> Option<(String, String)> {
        let o = self.state.as_ref()?.outcome()?;
        Some((o.winner.key().to_string(), format!("{:?}", o.cause)))
    }

    /// What `player` sees now: the position as their view holds it.
    fn observation_string(&self, player: Whole) -> PyResult<String> {
        let side = self.player(&player)?;
        Ok(match self.view(side) {
            None => "the deal has not begun".to_string(),
            Some(v) => observe::text(&v),
        })
    }

    /// Everything `player` has seen since the start, then what they see now.
    fn information_state_string(&self, player: Whole) -> PyResult<String> {
        let side = self.player(&player)?;
        let now = self.observation_string(player)?;
        let seen = self.seen.lines(self.rules(), side);
        Ok(format!("{}\n--\n{now}", seen.join("\n")))
    }

    /// What `player` sees now, as numbers (`Game.tensor_size` of them).
    fn observation_tensor(&self, player: Whole) -> PyResult<Vec<f32>> {
        let side = self.player(&player)?;
        Ok(match self.view(side) {
            None => vec![0.0; self.game.shape.len()],
            Some(v) => self.game.shape.tensor(&v),
        })
    }

    /// `observation_tensor` as the bytes of its `float32`s in the machine's
    /// order, for `numpy.frombuffer`: OpenSpiel asks for a tensor at every
    /// step of a search, and numpy read the list of Python floats a number
    /// at a time (two thirds of `random_sim_test`'s time in the observer).
    fn observation_tensor_bytes<'py>(
        &self,
        py: Python<'py>,
        player: Whole,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let tensor = self.observation_tensor(player)?;
        let bytes: Vec<u8> = tensor.iter().flat_map(|x| x.to_ne_bytes()).collect();
        Ok(PyBytes::new(py, &bytes))
    }

    /// A state that `player` cannot tell from this one, with everything
    /// hidden from them dealt again at random from `seed` (the opponent's
    /// hand, every deck's order, the bag, and for the Editor which tokens
    /// lie face down on the track); what they have seen stays.
    ///
    /// For the Editor, a token she knows is not of a colour (she asked for
    /// it and none was face down, R5.6) is never dealt where she knows it
    /// lies: the engine's `View::determinize` keeps that knowledge, which
    /// the state carries with each face-down token.
    fn resample(&self, player: Whole, seed: Whole) -> PyResult<Match> {
        let side = self.player(&player)?;
        let seed = seed.seed("seed")?;
        let mut m = self.clone();
        if let Some(v) = self.view(side) {
            m.state = Some(v.determinize(seed));
        }
        Ok(m)
    }

    /// The move this engine's agent `spec` (`random`, `heuristic`,
    /// `ismcts:1000`, as on the command line) makes now, from the view of
    /// the player to move only. Releases the GIL while it thinks.
    fn agent_action(&self, py: Python<'_>, spec: &str, seed: Whole) -> PyResult<i64> {
        let spec = AgentSpec::parse(spec).map_err(PyValueError::new_err)?;
        let seed = seed.seed("seed")?;
        let Some((Actor::Player(side), options)) = self.decision().filter(|(_, o)| !o.is_empty())
        else {
            return Err(PyValueError::new_err("no player is to move"));
        };
        let Some(s) = &self.state else {
            return Err(PyValueError::new_err("no player is to move"));
        };
        // The agent plays the game as the engine deals it (its own
        // look-ahead deals with the generator), from this player's view.
        let mut dealt = s.clone();
        dealt.set_explicit_chance(false);
        let rules = &self.game.rules;
        let i = py.detach(|| {
            let mut agent = spec.build(seed, side);
            let view = View::new(rules, &dealt, side);
            agent.decide_index(&view, &options)
        });
        let i =
            i.map_err(|c| PyValueError::new_err(format!("the agent chose {c:?}, not an option")))?;
        self.id_of(Actor::Player(side), &options, i)
    }

    /// Every hidden part of the position, for tests and debugging: hands,
    /// decks (in order), the bag and the track's tokens by id, and the
    /// kind (colours, symbol) of each track token.
    fn hidden(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some(s) = &self.state else {
            return crate::batch::to_python(py, &serde_json::Value::Null);
        };
        let r = self.rules();
        let ids = |cs: &[CardId]| cs.iter().map(|c| r.card(*c).id.clone()).collect::<Vec<_>>();
        let value = serde_json::json!({
            "hands": { "editor": ids(s.hand(Side::Editor)), "nixon": ids(s.hand(Side::Nixon)) },
            "decks": { "editor": ids(s.deck(Side::Editor)), "nixon": ids(s.deck(Side::Nixon)) },
            "bag": s.bag().iter().map(|t| t.0).collect::<Vec<_>>(),
            "track": s.track().iter().map(|t| t.0).collect::<Vec<_>>(),
            "track_face_down": s.track().iter().map(|t| matches!(s.on_track(*t), Some((_, false)))).collect::<Vec<_>>(),
            "track_kinds": s.track().iter().map(|t| {
                let k = r.token(*t);
                watergate_core::game::engine::notation::kind_name(k.colours, k.momentum_symbol)
            }).collect::<Vec<_>>(),
        });
        crate::batch::to_python(py, &value)
    }

    /// The whole position, nothing hidden (OpenSpiel's `str(state)`).
    fn __str__(&self) -> String {
        match &self.state {
            None => format!("a game to be dealt from one of {} seeds", self.seeds),
            Some(s) => {
                let style = watergate_formats::render::Style::plain(None);
                watergate_formats::render::position(self.rules(), s, &style)
            }
        }
    }

    fn clone(&self) -> Match {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Match {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Match {
        Clone::clone(self)
    }

    /// The state as bytes (see `restore_match`).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = serde_json::to_vec(&self.saved())
            .map_err(|e| PyValueError::new_err(format!("cannot save the state: {e}")))?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let restore = py.import("watergate._engine")?.getattr("restore_match")?;
        (restore, (self.to_bytes(py)?,)).into_pyobject(py)
    }

    fn __eq__(&self, other: &Match) -> bool {
        self.game.rules.fingerprint == other.game.rules.fingerprint
            && self.state == other.state
            && self.seeds == other.seeds
            && self.seen.same(&other.seen, &self.game.rules)
    }
}
