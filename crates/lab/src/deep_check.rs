//! `watergate check --deep`: runs the card scripts in many reachable states,
//! so an error on a branch that depends on the game (`if round() >= 3 {…}`)
//! shows at check time rather than in the middle of a long simulation.
//!
//! Loading already runs every script once, in a neutral state; a script
//! that reads the game can still fail only in some states. The deep check
//! plays random games with every agent (their look-ahead explores states
//! the games themselves do not reach), plays every scenario it finds, and
//! from each scenario's position tries every option once. Each failure is
//! reported once per script position, with the command that reaches it
//! again.

use crate::data::{DataSet, GameSource};
use crate::formats::scenario::{PlayStop, Scenario};
pub use crate::formats::shell_word;
use crate::game::engine::notation::format_choice;
use crate::game::engine::{PlayError, ScriptError};
use crate::game::rules::{Action, Rules};
use crate::players::agent::{AgentSpec, Budget};
use crate::sim::{play_indexed, single_game_seed, GameFailure};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The seed of the deep check's games (fixed, so a check is repeatable).
pub const SEED: u64 = 1;

/// Which agents play how many of the games, for `--games n`: random games
/// are cheap and reach the most states; the heuristic and search agents
/// reach the states good play leads to, and look ahead from them.
pub fn pairings(n: u64) -> Vec<(AgentSpec, AgentSpec, u64)> {
    use AgentSpec::*;
    let small = AgentSpec::ismcts(Budget::Iterations(20));
    vec![
        (Random, Random, n),
        (Heuristic, Random, (n / 5).max(1)),
        (Random, Heuristic, (n / 5).max(1)),
        (Heuristic, Heuristic, (n / 5).max(1)),
        (small.clone(), Random, (n / 100).max(1)),
        (Random, small, (n / 100).max(1)),
    ]
}

/// How to name the game being checked in a command that reaches a state:
/// the command-line flags that name it again, for a reproduce command.
trait Flags {
    fn flags(&self) -> String;
}

impl Flags for GameSource {
    fn flags(&self) -> String {
        let mut c = String::new();
        if let Some(d) = &self.data {
            c.push_str(&format!(" --data {}", shell_word(&d.display().to_string())));
        }
        if let Some(v) = &self.variant {
            c.push_str(&format!(
                " --variant {}",
                shell_word(&v.display().to_string())
            ));
        }
        c
    }
}

/// One failure, where it first happened and how to get there again.
#[derive(Clone, Debug)]
pub struct Finding {
    pub error: PlayError,
    /// Where: "game 3 of random vs random", "scenarios/puzzles/x.ron play[2]".
    pub place: String,
    /// The command that reaches the same failure.
    pub reproduce: String,
    /// How many of the checked games and scenario steps failed the same way.
    pub times: u64,
}

impl Finding {
    pub fn script(&self) -> Option<&ScriptError> {
        match &self.error {
            PlayError::Script(e) => Some(e),
            _ => None,
        }
    }

    /// The text shown under the error: where, how often, how to reproduce.
    pub fn context(&self) -> String {
        let mut s = format!("first {}", self.place);
        if self.times > 1 {
            s.push_str(&format!(" (and {} more times)", self.times - 1));
        }
        s.push_str(&format!("\nreproduce: {}", self.reproduce));
        s
    }
}

/// What the deep check did and found.
#[derive(Debug, Default)]
pub struct DeepReport {
    /// Games played, by agents (`random vs heuristic`).
    pub games: Vec<(String, u64)>,
    pub scenarios: usize,
    /// Options tried once from scenario positions.
    pub options_tried: u64,
    /// Scenario files not played, and why.
    pub skipped: Vec<(String, String)>,
    /// Action plays per card in the games (by card id).
    pub action_plays: BTreeMap<String, u64>,
    /// How many cards' scripts read the game (those that can fail in some
    /// states only; the others yielded their program at load).
    pub dynamic: usize,
    /// Distinct failures, in the order found (script failures first).
    pub findings: Vec<Finding>,
}

/// Where the same failure is the same: a script's position and message, or
/// the engine's message.
fn failure_key(e: &PlayError) -> String {
    match e {
        PlayError::Script(s) => format!("{}:{}:{}:{}", s.script, s.line, s.col, s.message),
        other => other.to_string(),
    }
}

fn note(findings: &mut Vec<Finding>, f: Finding) {
    let key = failure_key(&f.error);
    match findings.iter_mut().find(|g| failure_key(&g.error) == key) {
        Some(g) => g.times += 1,
        None => findings.push(f),
    }
}

/// The scenario files under `dirs` (recursively, sorted), leaving out
/// variant files.
pub fn scenario_files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(d) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "ron") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for d in dirs {
        walk(d, &mut out);
    }
    out
}

/// Runs the deep check: `games` random games (scaled per agent, see
/// [`pairings`]) on `threads` threads, then the scenario files. `ds` is the
/// data set the game was built from (with the command line's variant
/// applied), for scenarios that name a variant of their own. `progress` is
/// called with the number of games and scenarios done.
pub fn deep_check(
    r: &Rules,
    ds: &DataSet,
    flags: &GameSource,
    games: u64,
    scenarios: &[PathBuf],
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<DeepReport, crate::runner::ThreadsRefused> {
    let mut report = DeepReport {
        dynamic: r
            .cards
            .iter()
            .filter(|c| matches!(c.action, Action::Dynamic { .. }))
            .count(),
        ..Default::default()
    };
    let plan = pairings(games);
    let jobs: Vec<(usize, u64)> = plan
        .iter()
        .enumerate()
        .flat_map(|(p, (_, _, n))| (0..*n).map(move |i| (p, i)))
        .collect();
    // (pairing, index, failure) in job order, and per-card action plays.
    let mut failures: Vec<(usize, u64, GameFailure)> = Vec::new();
    let mut plays = vec![0u64; r.cards.len()];
    let play = |k: u64| {
        let (p, index) = jobs[k as usize];
        let (e, n, _) = &plan[p];
        (p, index, play_indexed(r, e, n, SEED, index))
    };
    crate::runner::run_ordered(
        jobs.len() as u64,
        threads,
        &AtomicBool::new(false),
        progress,
        play,
        |_, (p, index, result)| {
            match result {
                Ok(g) => {
                    for (c, (_, a)) in g.plays.iter().enumerate() {
                        plays[c] += *a as u64;
                    }
                }
                Err(f) => failures.push((p, index, f)),
            }
            ControlFlow::Continue(())
        },
    )?;
    for (i, c) in r.cards.iter().enumerate() {
        report
            .action_plays
            .insert(c.id.clone(), plays.get(i).copied().unwrap_or(0));
    }
    for (p, index, f) in failures {
        let (e, n, _) = &plan[p];
        // The reproduce command plays this game alone, as its game 0: the
        // game seed is what both name.
        let mut place = format!(
            "in game {index} of {e} (Editor) vs {n} (Nixon), seed {SEED}, game seed {} \
             (game 0 of the reproduce command)",
            f.seed
        );
        if let Some(who) = &f.lookahead {
            place.push_str(&format!(", while {who} looked ahead"));
        }
        note(
            &mut report.findings,
            Finding {
                error: *f.error,
                place,
                reproduce: format!(
                    "watergate simulate{} --games 1 --seed {} --editor {e} --nixon {n}",
                    flags.flags(),
                    single_game_seed(SEED, index)
                ),
                times: 1,
            },
        );
    }
    report.games = plan
        .iter()
        .map(|(e, n, k)| (format!("{e} vs {n}"), *k))
        .collect();
    for (k, file) in scenarios.iter().enumerate() {
        check_scenario(r, ds, flags, file, &mut report);
        progress(jobs.len() as u64 + k as u64 + 1);
    }
    // Script failures first: they are what the deep check is for.
    report.findings.sort_by_key(|f| f.script().is_none());
    Ok(report)
}

/// Plays one scenario file with the game being checked, then tries every
/// option of the position it reaches.
fn check_scenario(r: &Rules, ds: &DataSet, flags: &GameSource, file: &Path, out: &mut DeepReport) {
    let shown = file.display().to_string();
    let text = crate::data::read_data_file(file)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default();
    // Variant and data files kept beside the scenarios are not scenarios.
    if !matches!(crate::data::ron_head(&text), Some("Scenario" | "")) {
        return;
    }
    let scn = match Scenario::from_file(file) {
        Ok(s) => s,
        Err(_) => {
            out.skipped
                .push((shown, "not a readable scenario file".into()));
            return;
        }
    };
    if let Some(d) = &scn.def.data {
        // Its own data set: checked here only when it is the one checked.
        let same = |a: &Path, b: &Path| {
            a.canonicalize()
                .ok()
                .is_some_and(|a| b.canonicalize().ok() == Some(a))
        };
        if !flags
            .data
            .as_deref()
            .is_some_and(|ours| same(&scn.dir.join(d), ours))
        {
            out.skipped
                .push((shown, "plays its own data set (`data:`)".into()));
            return;
        }
    }
    // The scenario's own layers (its variant, then its inline edits) go on
    // top of the game being checked, as for every command (most specific last).
    let own;
    let r = if scn.def.variant.is_none() && scn.def.edits.is_none() {
        r
    } else {
        let layered = match &scn.def.variant {
            None => Ok(ds.clone()),
            Some(v) => {
                crate::data::variant::Variant::from_file(&scn.dir.join(v)).and_then(|v| v.apply(ds))
            }
        };
        match layered.and_then(|d| scn.rules_with_edits(&d)) {
            Ok(rules) => {
                own = rules;
                &own
            }
            Err(_) => {
                out.skipped.push((
                    shown,
                    "its variant or inline edits do not apply to this game".into(),
                ));
                return;
            }
        }
    };
    let Ok(mut s) = scn.start(r) else {
        out.skipped
            .push((shown, "its position does not fit this game".into()));
        return;
    };
    out.scenarios += 1;
    let command = format!("watergate scenario{} {}", flags.flags(), shell_word(&shown));
    match scn.play_choices(r, &mut s) {
        Ok(()) => {}
        Err(PlayStop::Script { at, choice, error }) => {
            note(
                &mut out.findings,
                Finding {
                    error: PlayError::Script(error),
                    place: format!("in {shown}, at {at} `{choice}`"),
                    reproduce: command,
                    times: 1,
                },
            );
            return;
        }
        // A choice the edited game does not allow: the scenario is about
        // another game; what was reached so far is still checked below.
        Err(PlayStop::Input(_)) => {}
    }
    let mut options = Vec::new();
    if s.legal(r, &mut options).is_none() {
        return;
    }
    for c in options {
        out.options_tried += 1;
        let mut next = s.clone();
        if let Err(e @ PlayError::Script(_)) = next.apply(r, c) {
            let choice = format_choice(r, &s, c);
            note(
                &mut out.findings,
                Finding {
                    error: e,
                    place: format!("in {shown}, choosing `{choice}` after its play list"),
                    reproduce: format!("{command}   (then choose `{choice}`: add it to the scenario's `play:` list, or `watergate play --scenario {}`)", shell_word(&shown)),
                    times: 1,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_quote_only_what_the_shell_would_split() {
        assert_eq!(shell_word("mydata"), "mydata");
        assert_eq!(shell_word("../a/b_c-1.ron"), "../a/b_c-1.ron");
        assert_eq!(shell_word("my data"), "'my data'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn every_agent_plays_at_least_one_game() {
        let p = pairings(1);
        assert!(p.iter().all(|(_, _, n)| *n >= 1));
        for spec in ["random", "heuristic", "ismcts"] {
            assert!(p.iter().any(
                |(e, n, _)| e.to_string().starts_with(spec) || n.to_string().starts_with(spec)
            ));
        }
        assert_eq!(pairings(1000)[0].2, 1000);
    }
}
