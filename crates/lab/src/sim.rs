//! Simulations: many games between two agents, with statistics that do not
//! depend on how the games were spread over threads. Game `i` of a run with
//! seed `s` always uses the same seeds, and tallies are sums, so 1 thread
//! and many threads give the same numbers.

use crate::driver::{play_out, DriveError, Steps};
use crate::game::engine::{Event, Observer, PlayError, ScriptError};
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::players::agent::{AgentSpec, SeatAgent};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

/// The seed of game `index` of a run seeded with `base` (SplitMix64).
pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut z = base
        .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The run seed whose game 0 is game `index` of a run seeded with `base`:
/// `simulate --games 1 --seed S` then replays that one game exactly (same
/// game seed, same agent seeds).
pub fn single_game_seed(base: u64, index: u64) -> u64 {
    base.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A game that could not be played to its end, and where: enough to say
/// which file is to blame and to replay that one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFailure {
    /// The game's index in its run.
    pub index: u64,
    /// The game's own seed (`game_seed(run seed, index)`).
    pub seed: u64,
    /// Whether it was the game compared against (`simulate --against`).
    pub against: bool,
    /// When a card script failed inside an agent's look-ahead (a state the
    /// game can reach), which agent and side.
    pub lookahead: Option<String>,
    pub error: Box<PlayError>,
}

impl GameFailure {
    /// The card script to blame, if a script failed.
    pub fn script(&self) -> Option<&ScriptError> {
        match &*self.error {
            PlayError::Script(e) => Some(e),
            _ => None,
        }
    }
}

/// Why a run of games gave no result: a game failed, or its threads could
/// not be started (then no game was played).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimFailure {
    Game(GameFailure),
    Threads(crate::runner::ThreadsRefused),
}

impl std::fmt::Display for SimFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimFailure::Game(g) => g.fmt(f),
            SimFailure::Threads(t) => t.fmt(f),
        }
    }
}

impl From<crate::runner::ThreadsRefused> for SimFailure {
    fn from(t: crate::runner::ThreadsRefused) -> SimFailure {
        SimFailure::Threads(t)
    }
}

impl std::fmt::Display for GameFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.error)?;
        if let Some(who) = &self.lookahead {
            write!(f, " (while {who} looked ahead)")?;
        }
        write!(f, " — in game {} (game seed {})", self.index, self.seed)
    }
}

/// Per card: how it was used and how games went when its action was used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardTally {
    pub value_plays: u64,
    pub action_plays: u64,
    /// Games in which its owner used its action at least once.
    pub action_games: u64,
    /// …of which its owner won.
    pub action_wins: u64,
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub index: u64,
    pub seed: u64,
    pub outcome: Outcome,
    pub rounds: u16,
    pub decisions: u64,
    /// Value and action plays per card (by `CardId`).
    pub plays: Vec<(u16, u16)>,
}

/// Sums over many games.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub games: u64,
    pub editor_wins: u64,
    pub nixon_wins: u64,
    /// By cause key (`momentum`, `empty_supply`, `connected`).
    pub win_causes: BTreeMap<String, u64>,
    pub rounds_sum: u64,
    pub rounds_sq_sum: u64,
    /// Games by number of rounds.
    pub rounds_histogram: BTreeMap<u16, u64>,
    pub decisions: u64,
    /// By card id.
    pub cards: BTreeMap<String, CardTally>,
}

impl Tally {
    pub fn add(&mut self, r: &Rules, g: &GameResult) {
        self.add_game(g);
        let mut cards = CardSums::new(r);
        cards.add(r, g);
        cards.fold_into(r, self);
    }

    /// Everything of [`Tally::add`] but the per-card sums.
    fn add_game(&mut self, g: &GameResult) {
        self.games += 1;
        match g.outcome.winner {
            Side::Editor => self.editor_wins += 1,
            Side::Nixon => self.nixon_wins += 1,
        }
        // Looked up by `&str`: the key is made only the first time a cause
        // is seen (a `String` per game was an allocation per game).
        let cause = g.outcome.cause.key();
        match self.win_causes.get_mut(cause) {
            Some(n) => *n += 1,
            None => {
                self.win_causes.insert(cause.to_string(), 1);
            }
        }
        let rounds = g.rounds as u64;
        self.rounds_sum += rounds;
        self.rounds_sq_sum += rounds * rounds;
        *self.rounds_histogram.entry(g.rounds).or_default() += 1;
        self.decisions += g.decisions;
    }

    /// Adds another tally (order does not matter: every field is a sum).
    pub fn merge(&mut self, o: &Tally) {
        self.games += o.games;
        self.editor_wins += o.editor_wins;
        self.nixon_wins += o.nixon_wins;
        for (k, v) in &o.win_causes {
            *self.win_causes.entry(k.clone()).or_default() += v;
        }
        self.rounds_sum += o.rounds_sum;
        self.rounds_sq_sum += o.rounds_sq_sum;
        for (k, v) in &o.rounds_histogram {
            *self.rounds_histogram.entry(*k).or_default() += v;
        }
        self.decisions += o.decisions;
        for (k, v) in &o.cards {
            let t = self.cards.entry(k.clone()).or_default();
            t.value_plays += v.value_plays;
            t.action_plays += v.action_plays;
            t.action_games += v.action_games;
            t.action_wins += v.action_wins;
        }
    }

    pub fn mean_rounds(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.rounds_sum as f64 / self.games as f64
        }
    }

    /// Sample standard deviation of the number of rounds.
    pub fn sd_rounds(&self) -> f64 {
        if self.games < 2 {
            return 0.0;
        }
        let n = self.games as f64;
        let mean = self.rounds_sum as f64 / n;
        let var = (self.rounds_sq_sum as f64 - n * mean * mean) / (n - 1.0);
        var.max(0.0).sqrt()
    }

    pub fn wins(&self, side: Side) -> u64 {
        match side {
            Side::Editor => self.editor_wins,
            Side::Nixon => self.nixon_wins,
        }
    }
}

/// Per-card sums of a run by card index, folded into a [`Tally`]'s map
/// (keyed by card id) once at the end: looking a card's id up in the map
/// for every card of every game cost more than a whole game's setup.
struct CardSums {
    cards: Vec<CardTally>,
    games: u64,
}

impl CardSums {
    fn new(r: &Rules) -> CardSums {
        CardSums {
            cards: vec![CardTally::default(); r.cards.len()],
            games: 0,
        }
    }

    fn add(&mut self, r: &Rules, g: &GameResult) {
        self.games += 1;
        for ((t, (v, a)), card) in self.cards.iter_mut().zip(&g.plays).zip(&r.cards) {
            t.value_plays += *v as u64;
            t.action_plays += *a as u64;
            // With no branch on whether the card's action was played in
            // the game (a guess the processor got wrong at one card in
            // five, issue 38).
            let used = u64::from(*a > 0);
            t.action_games += used;
            t.action_wins += used & u64::from(g.outcome.winner == card.side);
        }
    }

    /// Adds the sums to `tally.cards`; every card of `r` gets its entry
    /// once a game was added, as when each game was added there.
    fn fold_into(&self, r: &Rules, tally: &mut Tally) {
        if self.games == 0 {
            return;
        }
        for (card, s) in r.cards.iter().zip(&self.cards) {
            let t = tally.cards.entry(card.id.clone()).or_default();
            t.value_plays += s.value_plays;
            t.action_plays += s.action_plays;
            t.action_games += s.action_games;
            t.action_wins += s.action_wins;
        }
    }
}

/// Counts the plays of one game.
struct PlayCounter {
    plays: Vec<(u16, u16)>,
}

impl Steps for PlayCounter {
    type Error = std::convert::Infallible;
    const WATCHES_DECISIONS: bool = false;
}

impl Observer for PlayCounter {
    fn event(&mut self, e: Event) {
        if let Event::Played { card, part, .. } = e {
            // Counted with no branch on the part, the random player's
            // pick, which the processor could only guess (issue 38).
            let p = &mut self.plays[card.index()];
            p.0 += u16::from(part == Part::Value);
            p.1 += u16::from(part == Part::Action);
        }
    }
}

/// Plays one game between two agents (by `Side::index()`).
pub fn play_game(
    r: &Rules,
    index: u64,
    seed: u64,
    agents: &mut [SeatAgent; 2],
) -> Result<GameResult, GameFailure> {
    let fail = |error, lookahead| GameFailure {
        index,
        seed,
        against: false,
        lookahead,
        error: Box::new(error),
    };
    let mut counter = PlayCounter {
        plays: vec![(0, 0); r.cards.len()],
    };
    let mut s = State::new_observed(r, seed, &mut counter);
    let [editor, nixon] = agents;
    let played = play_out(r, &mut s, BySide::new(editor, nixon), None, &mut counter).map_err(
        |e| match e {
            DriveError::Play(e) => fail(e, None),
            DriveError::Lookahead { side, agent, error } => fail(
                PlayError::Script(error),
                Some(format!("the {agent} agent ({side})")),
            ),
            DriveError::Illegal { agent, choice } => fail(
                PlayError::illegal(format!(
                    "agent {agent} chose {choice:?}, which is not an option"
                )),
                None,
            ),
            DriveError::NoSuchOption {
                agent,
                index,
                options,
            } => fail(
                PlayError::illegal(format!(
                    "agent {agent} chose option {index} of {options}, which is not an option"
                )),
                None,
            ),
            DriveError::NoChance => fail(
                PlayError::internal("a chance decision in a simulation"),
                None,
            ),
            DriveError::Observer(never) => match never {},
        },
    )?;
    let decisions = played.decisions;
    Ok(GameResult {
        index,
        seed,
        outcome: s
            .outcome()
            .ok_or_else(|| fail(PlayError::internal("game ended without outcome"), None))?,
        rounds: s.round(),
        decisions,
        plays: counter.plays,
    })
}

/// Plays game `index` of a run seeded `run_seed`: the game's seed and its
/// agents' seeds all derive from those two numbers, so any game of any run
/// can be played again alone (see [`single_game_seed`]).
pub fn play_indexed(
    r: &Rules,
    editor: &AgentSpec,
    nixon: &AgentSpec,
    run_seed: u64,
    index: u64,
) -> Result<GameResult, GameFailure> {
    let seed = game_seed(run_seed, index);
    let mut agents = [
        editor.build_seat(game_seed(seed, 1), Side::Editor),
        nixon.build_seat(game_seed(seed, 2), Side::Nixon),
    ];
    play_game(r, index, seed, &mut agents)
}

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub games: u64,
    pub seed: u64,
    /// Game indices start here (for shards of a larger run).
    pub first_game: u64,
    pub editor: AgentSpec,
    pub nixon: AgentSpec,
    pub threads: usize,
}

/// The result of a run: the game's tally and, when compared with another
/// game (`--against`), that game's tally on the same seeds and the paired
/// sums.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SimResult {
    pub tally: Tally,
    #[serde(default, alias = "baseline")]
    pub against: Option<Tally>,
    #[serde(default)]
    pub paired: Option<crate::stats::Paired>,
}

impl SimResult {
    pub fn merge(&mut self, o: &SimResult) {
        self.tally.merge(&o.tally);
        match (&mut self.against, &o.against) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.against = Some(b.clone()),
            _ => {}
        }
        match (&mut self.paired, &o.paired) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.paired = Some(*b),
            _ => {}
        }
    }
}

/// Runs the games of `cfg` on `cfg.threads` threads. `progress` is called
/// with the number of games finished so far (from any thread).
pub fn simulate(
    r: &Rules,
    cfg: &SimConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Tally, SimFailure> {
    simulate_compare(r, None, cfg, progress).map(|res| res.tally)
}

/// Runs the games of `cfg` with the rules `r` and, if given, the same games
/// (same seeds for the game and the agents) with `against`, so that the
/// comparison is paired. Results do not depend on `cfg.threads`. On a
/// failure, the one with the lowest game index.
pub fn simulate_compare(
    r: &Rules,
    against: Option<&Rules>,
    cfg: &SimConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimResult, SimFailure> {
    simulate_compare_until(r, against, cfg, progress, &AtomicBool::new(false))
}

/// `simulate_compare` that stops starting games once `stop` is set (Ctrl-C).
/// Games are claimed in index order and every claimed game is finished, so
/// the result is exactly the first `result.tally.games` games of `cfg`.
pub fn simulate_compare_until(
    r: &Rules,
    against: Option<&Rules>,
    cfg: &SimConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<SimResult, SimFailure> {
    let mut total = SimResult {
        against: against.map(|_| Tally::default()),
        paired: against.map(|_| crate::stats::Paired::default()),
        ..Default::default()
    };
    let mut failure = None;
    let mut cards = CardSums::new(r);
    let mut against_cards = against.map(CardSums::new);
    let play = |i: u64| {
        let index = cfg.first_game + i;
        let run = |rules: &Rules| play_indexed(rules, &cfg.editor, &cfg.nixon, cfg.seed, index);
        run(r).and_then(|g| match against {
            Some(b) => run(b)
                .map(|h| (g, Some(h)))
                .map_err(|f| GameFailure { against: true, ..f }),
            None => Ok((g, None)),
        })
    };
    // Results arrive in index order, so the failure reported is the one
    // with the lowest game index, whatever the threads.
    crate::runner::run_ordered(
        cfg.games,
        cfg.threads,
        stop,
        progress,
        play,
        |_, outcome| match outcome {
            Ok((g, h)) => {
                total.tally.add_game(&g);
                cards.add(r, &g);
                if let (Some(h), Some(b)) = (h, against) {
                    if let Some(t) = &mut total.against {
                        t.add_game(&h);
                    }
                    if let Some(c) = &mut against_cards {
                        c.add(b, &h);
                    }
                    if let Some(p) = &mut total.paired {
                        p.add(
                            (g.outcome.winner == Side::Editor, g.rounds),
                            (h.outcome.winner == Side::Editor, h.rounds),
                        );
                    }
                }
                ControlFlow::Continue(())
            }
            Err(e) => {
                failure = Some(e);
                ControlFlow::Break(())
            }
        },
    )?;
    if let Some(e) = failure {
        return Err(SimFailure::Game(e));
    }
    cards.fold_into(r, &mut total.tally);
    if let (Some(c), Some(b), Some(t)) = (&against_cards, against, &mut total.against) {
        c.fold_into(b, t);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_game_seed_replays_game_i_of_a_run() {
        for (base, index) in [(1, 0), (1, 2), (7, 123_456), (u64::MAX, 99)] {
            assert_eq!(
                game_seed(single_game_seed(base, index), 0),
                game_seed(base, index)
            );
        }
    }
}
