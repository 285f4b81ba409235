//! A game being played in the studio, and the table of them.
//!
//! A session holds the full state of its game; what leaves it for a seat is
//! built by `seat.rs` from that seat's `View`. Each human seat has its own
//! secret token; the session id alone only says which game. Sessions are
//! bounded in number and expire when idle.

use crate::app::session::answer::{self, Reading};
use crate::app::session::undo::{self, History, NoUndo, Snapshot};
use crate::formats::log::{players, GameLog};
use crate::formats::narrate::narrate;
use crate::game::engine::{Actor, Choice, Event, PlayError};
use crate::game::model::{BySide, Side};
use crate::game::observation::Sight;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use crate::lab::sim::game_seed;
use crate::players::agent::{Agent, AgentSpec};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many games at once, and how long an untouched one lives.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_games: usize,
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_games: 256,
            idle: Duration::from_secs(60 * 60),
        }
    }
}

/// Who plays the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Two humans at one screen, handing over between seats.
    Hotseat,
    /// One human; an agent plays the other side.
    Against { human: Side, ai: AgentSpec },
}

impl Mode {
    pub fn human(&self, side: Side) -> bool {
        match self {
            Mode::Hotseat => true,
            Mode::Against { human, .. } => *human == side,
        }
    }
}

/// One game.
pub struct Session {
    pub rules: Arc<Rules>,
    pub state: State,
    /// The deal. A secret until the game is over unless the player chose
    /// it (`seed_chosen`): the seed derives every hidden card and token,
    /// so a seat that learned it could deal the same game in hotseat and
    /// look (issue 40). Read it through [`Session::shown_seed`].
    seed: u64,
    seed_chosen: bool,
    pub mode: Mode,
    agents: BySide<Option<Box<dyn Agent>>>,
    /// Each human seat's secret, by `Side::index()`.
    tokens: BySide<Option<String>>,
    /// What each side has been told, one line per event.
    pub narration: BySide<Vec<String>>,
    pub log: GameLog,
    /// What undo may take back: only a side's own decisions since it last
    /// learned something (issue 41).
    history: History,
    /// Counts every change (choices and undos): a request naming an older
    /// step is about a position that is gone.
    pub step: u64,
}

/// Why a choice was not taken: the game is unchanged.
pub enum Refusal {
    /// Not this seat's decision, no such option, or the engine says no.
    Refused(String),
    /// A card script failed (the data is to blame, not the player).
    Broken(String),
}

impl Session {
    /// A new game dealt from `seed`; `chosen`: the player named the seed
    /// (it may then be shown at once).
    pub fn new(rules: Arc<Rules>, seed: u64, chosen: bool, mode: Mode) -> Session {
        let mut events = Vec::new();
        let state = State::new_observed(&rules, seed, &mut events);
        let name = |side| match &mode {
            Mode::Against { ai, .. } if !mode.human(side) => ai.to_string(),
            _ => "human".to_string(),
        };
        let log = GameLog::new_game(&rules, seed, players(name(Side::Editor), name(Side::Nixon)));
        let agents = BySide::from_fn(|side| match &mode {
            Mode::Against { ai, .. } if !mode.human(side) => {
                Some(ai.build(game_seed(seed, side.index() as u64 + 1), side))
            }
            _ => None,
        });
        let tokens = BySide::from_fn(|side| mode.human(side).then(super::secret));
        let narration = BySide::from_fn(|side| {
            let seen = Sight::new_game(Some(side)).see_all(&events);
            narrate(&rules, Some(side), &seen)
        });
        Session {
            rules,
            state,
            seed,
            seed_chosen: chosen,
            mode,
            agents,
            tokens,
            narration,
            log,
            history: History::default(),
            step: 0,
        }
    }

    /// The seat a token opens, if any (compared in constant time).
    pub fn seat(&self, token: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|side| {
            self.tokens[*side]
                .as_deref()
                .is_some_and(|t| same(t.as_bytes(), token.as_bytes()))
        })
    }

    pub fn token(&self, side: Side) -> Option<&str> {
        self.tokens[side].as_deref()
    }

    /// The side whose decision is pending, if a player's.
    pub fn to_move(&self) -> Option<Side> {
        let mut options = Vec::new();
        match self.state.legal(&self.rules, &mut options) {
            Some(Actor::Player(side)) => Some(side),
            _ => None,
        }
    }

    /// The seed, when a seat may see it: the player chose it, or the game
    /// is over (then it is shown so the game can be replayed and shared).
    pub fn shown_seed(&self) -> Option<u64> {
        (self.seed_chosen || self.state.outcome().is_some()).then_some(self.seed)
    }

    /// Whether `side` has a decision of theirs it may take back.
    pub fn can_undo(&self, side: Side) -> bool {
        self.history.target(side).is_ok()
    }

    /// Why `side` may not undo now, in the words a refusal would use.
    pub fn why_no_undo(&self, side: Side) -> Option<String> {
        self.history.target(side).err().map(|e| e.to_string())
    }

    /// Whether `side` may download the whole position as a scenario file:
    /// a saved scenario holds everything (hands, decks, the bag's order,
    /// face-down tokens), so only when nothing is secret from anyone at
    /// this screen — a hotseat game, whose two players share the screen
    /// and the file — or once the game is over (ARCHITECTURE.md, "The
    /// studio").
    pub fn can_save(&self) -> bool {
        self.mode == Mode::Hotseat || self.state.outcome().is_some()
    }

    /// Reads an answer of `side`: an option's index, or its notation.
    pub fn parse(&self, side: Side, answer: &Answer) -> Result<Choice, Refusal> {
        let Some(d) = View::new(&self.rules, &self.state, side).decision() else {
            return Err(Refusal::Refused(
                match (self.state.outcome(), self.to_move()) {
                    (Some(_), _) => "the game is over".to_string(),
                    (None, Some(other)) => format!("it is {other}'s decision, not yours"),
                    (None, None) => "there is no decision to take".to_string(),
                },
            ));
        };
        let reading = Reading {
            first: 0,
            explain: Some(side),
        };
        answer::choice(&self.rules, &self.state, answer.read(), &d.options, reading)
            .map_err(|refused| Refusal::Refused(refused.to_string()))
    }

    /// Takes a human's choice, then lets the agents play until a human
    /// decides again or the game ends. On a refusal the game is unchanged.
    pub fn choose(&mut self, side: Side, answer: &Answer) -> Result<(), Refusal> {
        let choice = self.parse(side, answer)?;
        let snap = Snapshot {
            state: self.state.clone(),
            side,
            choices: self.log.choices.len(),
            narration: BySide::from_fn(|side| self.narration[side].len()),
        };
        let revealed = match self.take(choice) {
            Ok(revealed) => revealed,
            Err(PlayError::Script(e)) => return Err(Refusal::Broken(e.to_string())),
            Err(e) => return Err(Refusal::Refused(e.to_string())),
        };
        self.history.push(snap);
        self.history.learned(Some(side), revealed);
        self.step += 1;
        self.run_agents()
    }

    /// Applies a choice, records it and narrates it to both sides.
    /// Returns, per side, whether the choice may have shown it something
    /// it did not know ([`undo::revealed`]).
    fn take(&mut self, choice: Choice) -> Result<BySide<bool>, PlayError> {
        let before = self.state.clone();
        let mut events: Vec<Event> = Vec::new();
        self.state
            .apply_observed(&self.rules, choice, &mut events)?;
        self.log.record(&self.rules, &before, choice);
        self.log.outcome = self.state.outcome();
        for side in Side::BOTH {
            // Each side's sight starts from the position before the choice:
            // what it could identify then, followed through the events.
            let seen = Sight::new(&before, Some(side)).see_all(&events);
            let lines = narrate(&self.rules, Some(side), &seen);
            self.narration[side].extend(lines);
        }
        Ok(undo::revealed(&before, &self.state, &events))
    }

    /// The agents' moves until a human decides or the game ends. Blocking
    /// (an ISMCTS agent thinks for a while): called off the async runtime.
    pub fn run_agents(&mut self) -> Result<(), Refusal> {
        let mut options = Vec::new();
        loop {
            let Some(actor) = self.state.legal(&self.rules, &mut options) else {
                return Ok(());
            };
            let Actor::Player(side) = actor else {
                // Play draws chance itself; only a solver position asks.
                return Err(Refusal::Broken(
                    "the position asks for a chance outcome, which play never does".into(),
                ));
            };
            let Some(agent) = self.agents[side].as_mut() else {
                return Ok(());
            };
            let view = View::new(&self.rules, &self.state, side);
            let c = agent.decide(&view, &options);
            if let Some(se) = agent.take_script_error() {
                return Err(Refusal::Broken(format!(
                    "{side}'s agent found a failing card script while looking ahead: {se}"
                )));
            }
            if !options.contains(&c) {
                return Err(Refusal::Broken(format!(
                    "{side}'s agent chose an option that is not legal"
                )));
            }
            match self.take(c) {
                Ok(revealed) => {
                    self.history.learned(Some(side), revealed);
                    self.step += 1
                }
                Err(e) => {
                    return Err(Refusal::Broken(format!(
                        "{side}'s agent's choice failed: {e}"
                    )))
                }
            }
        }
    }

    /// Back to `side`'s previous decision, if nothing was learned since
    /// ([`History`]); refused with the reason otherwise, the game
    /// unchanged.
    pub fn undo(&mut self, side: Side) -> Result<(), NoUndo> {
        let snap = self.history.undo(side)?;
        self.state = snap.state;
        self.log.choices.truncate(snap.choices);
        self.log.outcome = self.state.outcome();
        for side in Side::BOTH {
            self.narration[side].truncate(snap.narration[side]);
        }
        self.step += 1;
        Ok(())
    }
}

/// A human's answer as a request sends it: the index of an option, or a
/// choice in notation.
#[derive(Clone, Debug)]
pub enum Answer {
    Index(usize),
    Text(String),
}

impl Answer {
    /// The answer to read ([`answer::choice`]).
    fn read(&self) -> answer::Answer<'_> {
        match self {
            Answer::Index(i) => answer::Answer::Number(*i as i128),
            Answer::Text(text) => answer::Answer::Notation(text),
        }
    }
}

/// Equal byte strings, in time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

struct Entry {
    session: Arc<Mutex<Session>>,
    used: Instant,
}

/// The games being played: bounded in number, forgotten when idle.
pub struct Sessions {
    pub limits: Limits,
    table: Mutex<HashMap<String, Entry>>,
}

/// Why a game could not be opened.
pub enum Full {
    Full(usize),
}

impl Sessions {
    pub fn new(limits: Limits) -> Sessions {
        Sessions {
            limits,
            table: Mutex::new(HashMap::new()),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        // A panic while holding the table lock leaves a usable table.
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores a new game under a fresh random id, unless the table is full
    /// (after forgetting the idle ones).
    pub fn insert(&self, session: Session) -> Result<String, Full> {
        let now = Instant::now();
        let mut t = self.table();
        let idle = self.limits.idle;
        t.retain(|_, e| now.duration_since(e.used) < idle);
        if t.len() >= self.limits.max_games {
            return Err(Full::Full(self.limits.max_games));
        }
        let id = super::secret();
        t.insert(
            id.clone(),
            Entry {
                session: Arc::new(Mutex::new(session)),
                used: now,
            },
        );
        Ok(id)
    }

    /// The game `id`, marked as used now.
    pub fn get(&self, id: &str) -> Option<Arc<Mutex<Session>>> {
        let mut t = self.table();
        let e = t.get_mut(id)?;
        e.used = Instant::now();
        Some(Arc::clone(&e.session))
    }

    pub fn remove(&self, id: &str) -> bool {
        self.table().remove(id).is_some()
    }

    pub fn len(&self) -> usize {
        self.table().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets the games untouched for longer than the idle limit, as of
    /// `now`; returns how many.
    pub fn expire(&self, now: Instant) -> usize {
        let mut t = self.table();
        let before = t.len();
        let idle = self.limits.idle;
        t.retain(|_, e| now.saturating_duration_since(e.used) < idle);
        before - t.len()
    }
}

/// Forgets idle games every so often, for as long as the server runs.
pub async fn expire_loop(sessions: Arc<Sessions>) {
    let every =
        (sessions.limits.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
    loop {
        tokio::time::sleep(every).await;
        sessions.expire(Instant::now());
    }
}
