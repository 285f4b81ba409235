//! `watergate mine`: puzzles mined from strong self-play games (or from
//! game logs), each proven by the solver to have exactly one winning first
//! choice, graded by the ladder's agents and written as a puzzle scenario
//! file. The proof and the grading are the lab's (`lab::mine`); this module
//! plays the games on the one runner, keeps each idea once and writes.

use super::{CliError, CliResult};
use crate::formats::log;
use crate::formats::scenario::save::RulesOrigin;
use crate::game::engine::Choice;
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::lab::mine::{self, Difficulty, GameMined, MineOptions, Mined};
use crate::players::agent::AgentSpec;
use clap::Args;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct MineArgs {
    /// Self-play games to mine (ignored with --logs).
    #[arg(short = 'n', long, value_name = "N", default_value_t = 20, value_parser = super::values::count, allow_negative_numbers = true)]
    pub games: u64,
    /// Seed of the run: game i is game i of `simulate --seed SEED` with the same agents.
    #[arg(short, long, value_name = "SEED", default_value_t = 1, value_parser = super::values::seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// The agent of both sides: random, heuristic, ismcts:N… (as `simulate` takes them); strong games by default, as the shipped set was mined.
    #[arg(long, value_name = "AGENT", default_value = "ismcts:1000", value_parser = super::values::one_agent)]
    pub agents: AgentSpec,
    /// The Editor's agent [default: --agents].
    #[arg(long, value_name = "AGENT", value_parser = super::values::one_agent)]
    pub editor: Option<AgentSpec>,
    /// Nixon's agent [default: --agents].
    #[arg(long, value_name = "AGENT", value_parser = super::values::one_agent)]
    pub nixon: Option<AgentSpec>,
    /// Mine these game logs (`play --log`) instead of playing games [default: play --games games].
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub logs: Vec<PathBuf>,
    /// The claim's horizon: a forced win within N of the side's own decisions (the opponent's and chance's in between are free; `solve --depth N --own`).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = super::values::depth)]
    pub depth: u32,
    /// The solver's limit (positions) for each search of a proof.
    #[arg(long, value_name = "N", default_value_t = 2_000_000, value_parser = super::values::count, allow_negative_numbers = true)]
    pub nodes: u64,
    /// The limit of the first, screening search of each position (most are no puzzle).
    #[arg(long, value_name = "N", default_value_t = 50_000, value_parser = super::values::count, allow_negative_numbers = true)]
    pub screen: u64,
    /// How often each grading agent (heuristic, ismcts:100, ismcts:1000) tries the position.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = super::values::count, allow_negative_numbers = true)]
    pub tries: u64,
    /// The folder the puzzle files are written to (made if missing; its parent folder must exist); ideas already there are skipped.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Run only slice I of N of the games (1-based), for a run spread over machines [default: all].
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    #[command(flatten)]
    pub threads: super::batch::Threads,
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// One game to mine: played, or read from a log.
enum Source {
    Play { first: u64 },
    Logs(Vec<LogToMine>),
}

/// A game log with the rules it was played on (`--data` and `--variant`
/// take the place of those the log records, as in `replay`), and where
/// they come from, for its puzzles to name.
struct LogToMine {
    log: log::LoadedLog,
    /// `None`: the run's own (a log that records no rules of its own).
    rules: Option<Rules>,
    origin: RulesOrigin,
}

impl LogToMine {
    fn read(path: &Path, given: &crate::data::GameSource) -> Result<Self, CliError> {
        let log = log::read(path).map_err(CliError::Data)?;
        let rules = if log.has_own_rules() {
            Some(log.rules_for(given).map_err(CliError::Data)?)
        } else {
            None
        };
        let origin = log.origin_for(given);
        Ok(LogToMine { log, rules, origin })
    }
}

pub fn run(a: &MineArgs) -> CliResult {
    // The output-path rule of every command (README): the folder may be
    // new, but its parent must exist, and a file there is refused, before
    // any game is played.
    super::paths::output_folder("--out", &a.out)?;
    super::paths::outside_games(&[("the game", &a.game.source())], &[("--out", &a.out)])?;
    let rules = a.game.rules()?;
    let editor = a.editor.clone().unwrap_or_else(|| a.agents.clone());
    let nixon = a.nixon.clone().unwrap_or_else(|| a.agents.clone());
    let (source, jobs) = if a.logs.is_empty() {
        super::note_timed_agents([&editor, &nixon]);
        let slice = match &a.shard {
            Some(s) => super::simulate::parse_shard(s, a.games)?,
            None => crate::lab::report::Slice {
                first_game: 0,
                games: a.games,
            },
        };
        (
            Source::Play {
                first: slice.first_game,
            },
            slice.games,
        )
    } else {
        let mut logs = Vec::new();
        for p in &a.logs {
            logs.push(LogToMine::read(p, &a.game.source())?);
        }
        let n = logs.len() as u64;
        (Source::Logs(logs), n)
    };
    if !a.out.is_dir() {
        // One folder, not its parents: a mistyped parent is an error above.
        std::fs::create_dir(&a.out)
            .map_err(|e| CliError::Message(format!("cannot make {}: {e}", a.out.display())))?;
    }
    let mut seen = ideas_in(&a.out);
    let options = MineOptions {
        depth: a.depth,
        node_limit: a.nodes,
        screen_limit: a.screen,
        graders: mine::ladder_agents(),
        tries: u32::try_from(a.tries).unwrap_or(u32::MAX),
    };
    let run_line = format!(
        "`watergate mine --seed {} --editor {editor} --nixon {nixon} --depth {}`",
        a.seed, a.depth
    );
    let threads = a.threads.count();
    let bar = super::progress::Progress::with_message(jobs, "games");
    bar.set_message("0 puzzles");
    let stop = super::interrupt::watch();
    let started = Instant::now();
    let mut totals = Totals::default();
    let mut failure: Option<CliError> = None;
    // The rules game `i` is mined on: the run's, or its log's.
    let rules_of = |i: u64| match &source {
        Source::Play { .. } => &rules,
        Source::Logs(logs) => logs[i as usize].rules.as_ref().unwrap_or(&rules),
    };
    let job = |i: u64| -> (GameMined, Option<String>) {
        let (index, seed, game) = match &source {
            Source::Play { first } => {
                let index = first + i;
                let seed = crate::lab::sim::game_seed(a.seed, index);
                let t = Instant::now();
                let game = mine::self_play(&rules, &editor, &nixon, a.seed, index);
                let played = t.elapsed().as_secs_f64();
                (index, seed, game.map(|g| (g, played)))
            }
            Source::Logs(logs) => {
                let l = &logs[i as usize];
                (
                    i,
                    l.log.log.start.seed,
                    log_game(rules_of(i), &l.log).map(|g| (g, 0.0)),
                )
            }
        };
        match game {
            Err(e) => (
                GameMined {
                    index,
                    seed,
                    failed: Some(e),
                    ..Default::default()
                },
                None,
            ),
            Ok(((start, choices), played)) => {
                let rules = rules_of(i);
                let positions = mine::positions(rules, &start, &choices);
                let mut m = mine::mine_game(rules, index, seed, &positions, &options, stop);
                m.play_seconds = played;
                let from = match &source {
                    Source::Play { .. } => format!(
                        "game {index} (seed {seed}) of {run_line}; replay it with `watergate simulate --games 1 --seed {} --editor {editor} --nixon {nixon}`",
                        crate::lab::sim::single_game_seed(a.seed, index)
                    ),
                    Source::Logs(logs) => format!("the game log {}", logs[i as usize].log.display),
                };
                (m, Some(from))
            }
        }
    };
    let ran = crate::lab::runner::run_ordered(
        jobs,
        threads,
        stop,
        &|n| bar.set(n),
        job,
        |i, (m, from): (GameMined, Option<String>)| {
            totals.add(&m);
            if let Some(e) = &m.failed {
                failure.get_or_insert(CliError::Message(format!(
                    "{e} (the game could not be mined)"
                )));
            }
            for p in &m.puzzles {
                if !mine::is_new(&mut seen, p) {
                    totals.duplicates += 1;
                    continue;
                }
                let origin = match &source {
                    Source::Play { .. } => RulesOrigin::of(&a.game.source(), None),
                    Source::Logs(logs) => logs[i as usize].origin.clone(),
                };
                match write_puzzle(rules_of(i), &origin, a, p, from.as_deref().unwrap_or("")) {
                    Ok(path) => totals.kept(p, path),
                    Err(e) => {
                        failure.get_or_insert(e);
                        return ControlFlow::Break(());
                    }
                }
            }
            bar.set_message(format!("{} puzzles", totals.written.len()));
            ControlFlow::Continue(())
        },
    );
    bar.finish();
    ran?;
    let secs = started.elapsed().as_secs_f64();
    let interrupted = super::interrupt::requested();
    let mut out = super::output::stdout();
    if interrupted {
        writeln!(
            out,
            "PARTIAL: interrupted ({cause}) after {} of {jobs} games; the puzzles found so far are written.",
            totals.games,
            cause = super::interrupt::cause()
        )?;
    }
    let game = match &source {
        Source::Logs(logs) if logs.iter().any(|l| l.log.has_own_rules()) => {
            "the rules each game log records".to_string()
        }
        _ => a.game.source().label(),
    };
    totals.report(&mut out, secs, threads, &a.out, &game)?;
    if let Some(e) = failure {
        return Err(e);
    }
    if interrupted {
        out.flush()?;
        return Err(CliError::Interrupted(format!(
            "{} written from the {} mined",
            crate::game::wording::count(totals.written.len(), "puzzle"),
            crate::game::wording::count(totals.games as usize, "game")
        )));
    }
    Ok(())
}

/// A log's start and choices (checked as a replay checks them).
fn log_game(r: &Rules, l: &log::LoadedLog) -> Result<(State, Vec<Choice>), String> {
    let start = l
        .start(r, &mut crate::game::engine::Quiet)
        .map_err(|d| d.to_string())?;
    let mut s = start.clone();
    let mut choices = Vec::new();
    for i in 0..l.log.choices.len() {
        let c = l
            .apply(r, &mut s, i, &mut crate::game::engine::Quiet)
            .map_err(|d| d.to_string())?;
        choices.push(c);
    }
    Ok((start, choices))
}

/// The ideas of the puzzles already in `dir` (their `// Idea:` lines).
fn ideas_in(dir: &Path) -> HashSet<String> {
    let mut seen = HashSet::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return seen;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "ron") {
            if let Ok(text) = crate::data::user_file::read_user_text(&p) {
                if let Some(h) = mine::header_field(&text, "Idea") {
                    seen.insert(h);
                }
            }
        }
    }
    seen
}

/// Writes one puzzle into `--out`; returns its path.
fn write_puzzle(
    r: &Rules,
    origin: &RulesOrigin,
    a: &MineArgs,
    m: &Mined,
    from: &str,
) -> Result<PathBuf, CliError> {
    let name = format!(
        "s{}_g{:04}_d{:03}_{}.ron",
        a.seed,
        m.game,
        m.decision,
        m.side.key()
    );
    let path = a.out.join(name);
    let mut def = mine::scenario_def(r, m, from);
    // The file keeps the rules it was mined with (`--data`, `--variant`,
    // or those its game log records).
    let notes = origin.stamp(&mut def, Some(&path));
    for n in notes {
        super::output::errln!("note: {n}");
    }
    let text = mine::file_text(&def, &mine::header(m, from));
    std::fs::write(&path, text)
        .map_err(|e| CliError::Message(format!("cannot write {}: {e}", path.display())))?;
    Ok(path)
}

/// What the run found and what it cost.
#[derive(Default)]
struct Totals {
    games: u64,
    candidates: u64,
    won: u64,
    several: u64,
    unknown: u64,
    duplicates: u64,
    solver_nodes: u64,
    solver_seconds: f64,
    play_seconds: f64,
    grade_seconds: f64,
    by: BTreeMap<(Difficulty, Side), u64>,
    written: Vec<PathBuf>,
}

impl Totals {
    fn add(&mut self, m: &GameMined) {
        self.games += 1;
        self.candidates += m.candidates;
        self.won += m.won;
        self.several += m.several;
        self.unknown += m.unknown;
        self.solver_nodes += m.solver_nodes;
        self.solver_seconds += m.solver_seconds;
        self.play_seconds += m.play_seconds;
        self.grade_seconds += m.grade_seconds;
    }

    fn kept(&mut self, m: &Mined, path: PathBuf) {
        *self.by.entry((m.difficulty, m.side)).or_default() += 1;
        self.written.push(path);
    }

    fn report(
        &self,
        out: &mut impl Write,
        secs: f64,
        threads: usize,
        dir: &Path,
        game: &str,
    ) -> CliResult {
        writeln!(
            out,
            "{} written to {} from {} ({} skipped)",
            crate::game::wording::count(self.written.len(), "puzzle"),
            dir.display(),
            crate::game::wording::count(self.games as usize, "game"),
            crate::game::wording::count(self.duplicates as usize, "duplicate idea")
        )?;
        // The files name the rules they were mined with; the report says too.
        writeln!(out, "  game: {game}")?;
        for d in Difficulty::ALL {
            let e = self.by.get(&(d, Side::Editor)).copied().unwrap_or(0);
            let n = self.by.get(&(d, Side::Nixon)).copied().unwrap_or(0);
            writeln!(out, "  {:<6} {e:>4} Editor, {n:>4} Nixon", d.key())?;
        }
        writeln!(
            out,
            "  positions screened: {}; won by force: {}, with several winning first moves: {}, not settled within the limits: {}",
            self.candidates, self.won, self.several, self.unknown
        )?;
        writeln!(
            out,
            "  solver: {} positions in {:.1} s, {:.1} ms per screened position; playing {:.1} s, grading {:.1} s (thread-seconds)",
            self.solver_nodes,
            self.solver_seconds,
            1000.0 * self.solver_seconds / (self.candidates.max(1) as f64),
            self.play_seconds,
            self.grade_seconds
        )?;
        // An hourly rate from a puzzle or two, or from seconds, says
        // nothing about an hour's mining: below these, no rate.
        let (kept, threads_s) = (self.written.len(), if threads == 1 { "" } else { "s" });
        if kept >= 5 && secs >= 60.0 {
            writeln!(
                out,
                "  {:.1} puzzles per hour on {threads} thread{threads_s} ({secs:.1} s)",
                kept as f64 * 3600.0 / secs
            )?;
        } else {
            writeln!(
                out,
                "  too few to rate (a rate needs 5 puzzles and a minute): {kept} in {secs:.1} s on {threads} thread{threads_s}"
            )?;
        }
        for p in &self.written {
            writeln!(out, "  {}", p.display())?;
        }
        Ok(())
    }
}
