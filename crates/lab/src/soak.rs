//! The soak test: many random games with card actions on, checking after
//! every step that nothing is created or lost, that every legal option
//! applies, that illegal ones are refused with the game unchanged, that the
//! state survives a save-and-load round trip through a scenario file, and
//! that each game replayed from its log ends the same.

use crate::driver::{play_out, DriveError, Steps};
use crate::formats::log::{players, GameLog, LoadedLog};
use crate::formats::scenario::{save, Scenario};
use crate::game::engine::{Actor, Choice, Observer, PlayError, TokenRef};
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::players::agent::{Agent, RandomAgent};
use crate::runner::ThreadsRefused;
use crate::sim::game_seed;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

#[derive(Clone, Debug)]
pub struct SoakConfig {
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// Round-trip the state through a scenario file every this many steps
    /// (1 = every step).
    pub save_every: u64,
}

/// What a soak run checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SoakReport {
    pub games: u64,
    pub steps: u64,
    pub options_applied: u64,
    pub illegal_refused: u64,
    pub round_trips: u64,
    pub replays: u64,
    /// The first failure: what, and the position as a scenario file.
    pub failure: Option<(String, String)>,
    /// When that failure was a card script's: the script to blame.
    pub script: Option<crate::game::engine::ScriptError>,
}

/// Keeps a script's failure, so the report blames the script.
fn note_script(rep: &mut SoakReport, e: &PlayError) {
    if let PlayError::Script(se) = e {
        rep.script.get_or_insert_with(|| (**se).clone());
    }
}

/// Choices of every shape that are not among `options`.
fn probes(r: &Rules, options: &[Choice], salt: u64) -> Vec<Choice> {
    let b = (salt % 251) as u8;
    let all = [
        Choice::Pass,
        Choice::Skip,
        Choice::Token(TokenRef::Initiative),
        Choice::Token(TokenRef::Momentum),
        Choice::Token(TokenRef::Evidence(b % 20)),
        Choice::Ask(Colour::ALL[(salt % 3) as usize]),
        Choice::Space(SpaceId(b)),
        Choice::Picture(PictureId(b % 9)),
        Choice::Branch(b % 4),
        Choice::Chance(b % 8),
        Choice::Play {
            card: CardId(b % r.cards.len() as u8),
            part: if salt.is_multiple_of(2) {
                Part::Action
            } else {
                Part::Value
            },
        },
        Choice::React(CardId(b % r.cards.len() as u8)),
        Choice::Card(CardId(b % r.cards.len() as u8)),
    ];
    all.into_iter().filter(|c| !options.contains(c)).collect()
}

fn check_step(
    r: &Rules,
    s: &State,
    options: &[Choice],
    step: u64,
    cfg: &SoakConfig,
    rep: &mut SoakReport,
) -> Result<(), String> {
    crate::game::invariants::conservation(r, s)?;
    for c in options {
        let mut next = s.clone();
        next.apply_unchecked(r, *c).map_err(|e| {
            note_script(rep, &e);
            format!("legal option {c:?} failed: {e}")
        })?;
        crate::game::invariants::conservation(r, &next).map_err(|e| format!("after {c:?}: {e}"))?;
        rep.options_applied += 1;
    }
    for p in probes(r, options, step) {
        let mut copy = s.clone();
        match copy.apply(r, p) {
            Err(PlayError::Illegal(_)) if copy == *s => rep.illegal_refused += 1,
            Err(PlayError::Illegal(_)) => return Err(format!("refusing {p:?} changed the game")),
            other => return Err(format!("illegal {p:?} gave {other:?}")),
        }
    }
    if step.is_multiple_of(cfg.save_every.max(1)) {
        let text = save::to_text(&save::scenario_of(r, s, "soak", ""));
        let scn = Scenario::from_text("soak.ron", &text, ".".into())
            .map_err(|d| format!("saved position does not parse: {d}"))?;
        let back = scn
            .start(r)
            .map_err(|d| format!("saved position does not load: {d}"))?;
        if back != *s {
            return Err("the saved position loads as a different game".into());
        }
        rep.round_trips += 1;
    }
    Ok(())
}

/// The soak's checks at every step of a game, and its log.
struct SoakSteps<'a> {
    r: &'a Rules,
    cfg: &'a SoakConfig,
    rep: &'a mut SoakReport,
    log: &'a mut GameLog,
    /// The step under way (= the steps applied before it).
    step: u64,
    /// Choices made so far (each applied, or the game has failed).
    chosen: u64,
}

impl Observer for SoakSteps<'_> {}

impl Steps for SoakSteps<'_> {
    type Error = String;
    fn before(
        &mut self,
        s: &State,
        _actor: Actor,
        options: &[Choice],
    ) -> Result<ControlFlow<()>, String> {
        self.step = self.chosen;
        check_step(self.r, s, options, self.step, self.cfg, self.rep)?;
        Ok(ControlFlow::Continue(()))
    }
    fn chosen(&mut self, s: &State, _actor: Actor, choice: Choice) -> Result<(), String> {
        self.log.record(self.r, s, choice);
        self.chosen += 1;
        Ok(())
    }
}

fn soak_game(
    r: &Rules,
    index: u64,
    cfg: &SoakConfig,
    rep: &mut SoakReport,
) -> Result<(), (String, Box<State>)> {
    let seed = game_seed(cfg.seed, index);
    let mut s = State::new(r, seed);
    let mut log = GameLog::new_game(r, seed, players("random", "random"));
    let mut agents = [
        RandomAgent::new(game_seed(seed, 1)),
        RandomAgent::new(game_seed(seed, 2)),
    ];
    let mut steps = SoakSteps {
        r,
        cfg,
        rep,
        log: &mut log,
        step: 0,
        chosen: 0,
    };
    let [editor, nixon] = &mut agents;
    let played = play_out(
        r,
        &mut s,
        BySide::new(editor as &mut dyn Agent, nixon),
        None,
        &mut steps,
    );
    let step = steps.step;
    match played {
        Ok(p) => rep.steps += p.decisions,
        Err(e) => {
            rep.steps += step;
            let what = match e {
                DriveError::Observer(what) => {
                    format!("game {index} (seed {seed}), step {step}: {what}")
                }
                DriveError::NoChance => "a chance decision in normal play".to_string(),
                DriveError::Play(e) => {
                    note_script(rep, &e);
                    format!("game {index}, step {step}: {e}")
                }
                DriveError::Lookahead { error, .. } => {
                    let e = PlayError::Script(error);
                    note_script(rep, &e);
                    format!("game {index}, step {step}: {e}")
                }
                DriveError::Illegal { agent, choice } => {
                    format!("game {index}, step {step}: agent {agent} chose {choice:?}, which is not an option")
                }
                DriveError::NoSuchOption {
                    agent,
                    index: i,
                    options,
                } => {
                    format!("game {index}, step {step}: agent {agent} chose option {i} of {options}, which is not an option")
                }
            };
            return Err((what, Box::new(s)));
        }
    }
    log.outcome = s.outcome();
    let loaded = crate::formats::log::from_text("soak.log.ron", &log.to_text(), ".".into())
        .map_err(|d| {
            (
                format!("game {index}: its log does not read back: {d}"),
                Box::new(s.clone()),
            )
        })?;
    let replayed = LoadedLog::replay(&loaded, r).map_err(|d| {
        (
            format!("game {index}: replay failed: {d}"),
            Box::new(s.clone()),
        )
    })?;
    if replayed != s {
        return Err((
            format!("game {index}: the replay ends in a different state"),
            Box::new(s),
        ));
    }
    rep.replays += 1;
    rep.games += 1;
    Ok(())
}

/// Runs the soak; `progress` gets the number of games done.
pub fn soak(
    r: &Rules,
    cfg: &SoakConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SoakReport, ThreadsRefused> {
    soak_until(r, cfg, progress, &AtomicBool::new(false))
}

/// `soak` that starts no new game once `interrupt` is set (Ctrl-C); the
/// games under way are finished and counted.
pub fn soak_until(
    r: &Rules,
    cfg: &SoakConfig,
    progress: &(dyn Fn(u64) + Sync),
    interrupt: &AtomicBool,
) -> Result<SoakReport, ThreadsRefused> {
    let play = |i: u64| {
        let mut rep = SoakReport::default();
        let result = soak_game(r, i, cfg, &mut rep);
        (rep, result)
    };
    let mut total = SoakReport::default();
    // Games reach the sink in index order: the failure reported is the
    // lowest-numbered game's, whatever the threads.
    crate::runner::run_ordered(
        cfg.games,
        cfg.threads,
        interrupt,
        progress,
        play,
        |_, (rep, result)| {
            total.games += rep.games;
            total.steps += rep.steps;
            total.options_applied += rep.options_applied;
            total.illegal_refused += rep.illegal_refused;
            total.round_trips += rep.round_trips;
            total.replays += rep.replays;
            match result {
                Ok(()) => ControlFlow::Continue(()),
                Err((what, s)) => {
                    let text = save::to_text(&save::scenario_of(r, &s, "soak failure", &what));
                    total.failure = Some((what, text));
                    total.script = rep.script;
                    ControlFlow::Break(())
                }
            }
        },
    )?;
    Ok(total)
}
