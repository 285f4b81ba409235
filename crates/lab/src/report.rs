//! A simulation's report, as `watergate simulate` prints it and `watergate
//! merge` reads it back: what identifies a run (`RunKey`), the slices of
//! its games, the sums (`SimResult`), and their JSON, text and CSV forms.
//! Every front end that simulates — the CLI, the studio's lab, the Python
//! module and the cluster runs built on it — makes its report here, so the
//! same options and seed give the same figures wherever they run. A front
//! end that simulates as `watergate simulate --json` does calls one
//! function, [`simulate_json`], with a [`SimulateRun`] (sweeps and ladders:
//! `sweep::sweep_json`, `ladder::ladder_json`).

use crate::data::GameSource;
use crate::deep_check::shell_word;
use crate::diag::Diagnostics;
use crate::game::model::{Side, WinCause};
use crate::game::rules::Rules;
use crate::players::agent::{AgentSpec, Budget};
use crate::sim::{
    simulate_compare_until, single_game_seed, GameFailure, SimConfig, SimFailure, SimResult, Tally,
};
use crate::stats::{newcombe, wilson, z_two_sided, Interval, Z95};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A game that cannot be set up for a run: its files do not load, or the
/// options name it wrongly.
#[derive(Debug)]
pub enum LoadError {
    /// The files' problems, each at its path:line:col.
    Data(Diagnostics),
    /// What is wrong with the options, in words.
    Message(String),
}

/// What identifies a run, so shards of the same sweep can be merged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunKey {
    pub seed: u64,
    pub games: u64,
    pub editor: String,
    pub nixon: String,
    /// What was played: `shipped game`, `mydata/`, `mydata/ + no_gambit.ron`.
    pub label: String,
    /// What it was compared against, labelled the same way.
    #[serde(default)]
    pub against: Option<String>,
    pub data_fingerprint: String,
    #[serde(default)]
    pub against_fingerprint: Option<String>,
}

impl RunKey {
    /// What makes `self` another run than `first`, field by field, in
    /// words (`seed 9 here, 8 in the first shard`).
    pub fn differences(&self, first: &RunKey) -> String {
        fn shown(v: &str) -> String {
            format!("`{v}`")
        }
        fn shown_opt(v: &Option<String>) -> String {
            v.as_deref().map_or("none".into(), shown)
        }
        let mut out = Vec::new();
        let mut field = |name: &str, here: String, there: String| {
            if here != there {
                out.push(format!("{name} {here} here, {there} in the first shard"));
            }
        };
        field("seed", self.seed.to_string(), first.seed.to_string());
        field("games", self.games.to_string(), first.games.to_string());
        field("editor", shown(&self.editor), shown(&first.editor));
        field("nixon", shown(&self.nixon), shown(&first.nixon));
        field("game", shown(&self.label), shown(&first.label));
        field(
            "against",
            shown_opt(&self.against),
            shown_opt(&first.against),
        );
        field(
            "data fingerprint",
            shown(&self.data_fingerprint),
            shown(&first.data_fingerprint),
        );
        field(
            "fingerprint of the game compared against",
            shown_opt(&self.against_fingerprint),
            shown_opt(&first.against_fingerprint),
        );
        out.join("; ")
    }
}

/// A slice of a run's games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slice {
    pub first_game: u64,
    pub games: u64,
}

/// `--shard I/N` of a run of `games`: the games of slice I (simulate and sweep).
pub fn parse_shard(s: &str, games: u64) -> Result<Slice, String> {
    let bad = || format!("--shard {s}: expected I/N with 1 <= I <= N, like 3/8");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: u64 = i.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    let start = games * (i - 1) / n;
    let end = games * i / n;
    Ok(Slice {
        first_game: start,
        games: end - start,
    })
}

/// One game to play: where its data comes from, the rules built from it,
/// and its label, which says what it is (an edited copy is never "the base
/// game").
pub struct PlayedGame {
    pub label: String,
    pub data: Option<PathBuf>,
    pub variant: Option<PathBuf>,
    pub rules: Rules,
}

/// The label of a data set: its folder (`mydata/`), or the shipped game.
pub fn data_label(data: Option<&Path>) -> String {
    match data {
        None => "shipped game".into(),
        Some(d) => {
            let s = d.display().to_string();
            if s.ends_with('/') {
                s
            } else {
                format!("{s}/")
            }
        }
    }
}

impl PlayedGame {
    /// The game of `--data` (or the shipped one) with `--variant` applied.
    pub fn load(data: Option<&Path>, variant: Option<&Path>) -> Result<PlayedGame, LoadError> {
        let source = GameSource {
            data: data.map(Path::to_path_buf),
            variant: variant.map(Path::to_path_buf),
        };
        let rules = source.rules().map_err(LoadError::Data)?;
        let label = match variant {
            None => data_label(data),
            Some(v) => format!("{} + {}", data_label(data), v.display()),
        };
        Ok(PlayedGame {
            label,
            data: data.map(Path::to_path_buf),
            variant: variant.map(Path::to_path_buf),
            rules,
        })
    }

    /// The game named by `--against`, for a run of `data` + `variant`.
    pub fn against(spec: &str, data: Option<&Path>) -> Result<PlayedGame, LoadError> {
        let s = PlayedGame::against_source(spec, data)?;
        PlayedGame::load(s.data.as_deref(), s.variant.as_deref())
    }

    /// Where the game of `--against SPEC` comes from, for a run of `data`:
    /// `shipped`, `base` (`data` as it is), a data folder, or a variant
    /// file applied to `data`.
    pub fn against_source(spec: &str, data: Option<&Path>) -> Result<GameSource, LoadError> {
        let source = |data: Option<&Path>, variant: Option<&Path>| GameSource {
            data: data.map(Path::to_path_buf),
            variant: variant.map(Path::to_path_buf),
        };
        match spec {
            "shipped" => Ok(source(None, None)),
            "base" => Ok(source(data, None)),
            p => {
                let path = Path::new(p);
                if path.is_dir() {
                    Ok(source(Some(path), None))
                } else if path.is_file() {
                    Ok(source(data, Some(path)))
                } else {
                    Err(LoadError::Message(format!(
                        "--against {p}: expected `shipped`, `base`, a data folder or a variant file; there is no file or folder `{p}`"
                    )))
                }
            }
        }
    }

    /// The command that plays game 0 of a run seeded `seed` with this game.
    pub fn command(&self, seed: u64, editor: &AgentSpec, nixon: &AgentSpec) -> String {
        let mut c = String::from("watergate simulate");
        if let Some(d) = &self.data {
            c.push_str(&format!(" --data {}", shell_word(&d.display().to_string())));
        }
        if let Some(v) = &self.variant {
            c.push_str(&format!(
                " --variant {}",
                shell_word(&v.display().to_string())
            ));
        }
        c.push_str(&format!(
            " --games 1 --seed {seed} --editor {editor} --nixon {nixon}"
        ));
        c
    }
}

/// A game to play in a run: its rules and its label (what the report calls it).
#[derive(Clone, Copy)]
pub struct Played<'a> {
    /// What the report calls the game (`shipped game`, `mydata/ + house.ron`).
    pub label: &'a str,
    /// The game's rules.
    pub rules: &'a Rules,
}

impl PlayedGame {
    /// This game as a run plays it.
    pub fn played(&self) -> Played<'_> {
        Played {
            label: &self.label,
            rules: &self.rules,
        }
    }
}

/// How to simulate: the CLI's `simulate` options, as data.
#[derive(Clone, Debug)]
pub struct SimulateOptions {
    /// Games in the run (with `precision`: the most to play).
    pub games: u64,
    /// The run's seed: game `i` plays with a seed derived from it.
    pub seed: u64,
    /// The Editor's agent.
    pub editor: AgentSpec,
    /// Nixon's agent.
    pub nixon: AgentSpec,
    /// Stop once the 95 % interval's half-width is at most this.
    pub precision: Option<f64>,
    /// `--shard I/N`: play only that slice of the run's games.
    pub shard: Option<String>,
    /// Play only these games of the run (first game, count): a shard cut
    /// by game index, as a cluster cuts a study.
    pub slice: Option<Slice>,
    /// Worker threads (results do not depend on them).
    pub threads: usize,
}

/// Why a run did not give a report.
#[derive(Debug)]
pub enum SimulateError {
    /// The options are wrong, in words.
    Message(String),
    /// A game failed; `against` tells whether in the compared game.
    Failure {
        /// The game that failed, with its index and seed.
        failure: GameFailure,
        /// The failure happened in the `--against` game.
        against: bool,
    },
}

/// A finished (or interrupted) run.
pub struct Simulation {
    /// The report, as `merge` reads it.
    pub report: Report,
    /// The report as `simulate --json` prints it.
    pub json: serde_json::Value,
    /// The slice asked for.
    pub slice: Slice,
    /// Games played (fewer than asked when stopped).
    pub played: u64,
    /// Whether `stop` ended it early (Ctrl-C).
    pub interrupted: bool,
    /// Wall time.
    pub seconds: f64,
    /// With `precision`: the half-width asked and the one the games gave
    /// (wider when the most games allowed were played first).
    pub precision: Option<(f64, f64)>,
}

/// The compared game of `--against SPEC` for a run of `game`, refused when
/// it is the same game.
pub fn against_game(
    spec: &str,
    data: Option<&Path>,
    game: &PlayedGame,
) -> Result<PlayedGame, LoadError> {
    let other = PlayedGame::against(spec, data)?;
    if other.rules.fingerprint == game.rules.fingerprint {
        return Err(LoadError::Message(same_game(
            spec,
            data.is_some(),
            &game.label,
            &other.label,
        )));
    }
    Ok(other)
}

/// Why `--against SPEC` is refused when it names the game being played
/// (labelled `this`; the compared one `other`), for a run with or without
/// `--data`.
pub fn same_game(spec: &str, with_data: bool, this: &str, other: &str) -> String {
    if spec == "base" && with_data {
        format!(
            "--against base: `base` is this game without --variant, so {this} would be compared with itself; to compare it with the shipped game, use --against shipped"
        )
    } else if other == this {
        format!(
            "--against {spec}: that is the game being played ({this}), so the comparison would be with itself; give --data DIR or --variant FILE for the edited game"
        )
    } else {
        format!(
            "--against {spec}: `{this}` and `{other}` are the same game (same data), so there is nothing to compare"
        )
    }
}

/// A rate's difference in points, to one decimal: a difference that
/// rounds to nothing is 0.0, not the `-0.0` a tiny negative one prints.
fn points(rate: f64) -> f64 {
    let p = 100.0 * rate;
    if (p * 10.0).round() == 0.0 {
        0.0
    } else {
        p
    }
}

/// Plays the run `o` of `game` (and the same games of `against`), as
/// `watergate simulate` does: `progress` hears the games finished so far,
/// and once `stop` is set no game starts (the report is of the games
/// played).
pub fn simulate(
    game: Played<'_>,
    against: Option<Played<'_>>,
    o: &SimulateOptions,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<Simulation, SimulateError> {
    if let Some(p) = o.precision {
        if !(p > 0.0 && p < 0.5) {
            return Err(SimulateError::Message(format!(
                "--precision {p}: expected a half-width between 0 and 0.5, like 0.01"
            )));
        }
    }
    let games = o.games;
    if games == 0 {
        return Err(SimulateError::Message("--games must be at least 1".into()));
    }
    let sliced = o.shard.is_some() || o.slice.is_some();
    if sliced && o.precision.is_some() {
        return Err(SimulateError::Message(
            "--shard and --precision do not go together: a shard plays a fixed slice".into(),
        ));
    }
    let slice = match (&o.shard, &o.slice) {
        (Some(s), _) => parse_shard(s, games).map_err(SimulateError::Message)?,
        (None, Some(s)) => {
            if s.first_game + s.games > games || s.games == 0 {
                return Err(SimulateError::Message(format!(
                    "slice {}..{}: expected games within the run's 0..{games}",
                    s.first_game,
                    s.first_game + s.games
                )));
            }
            s.clone()
        }
        (None, None) => Slice {
            first_game: 0,
            games,
        },
    };
    let rules = game.rules;
    let key = RunKey {
        seed: o.seed,
        games,
        editor: o.editor.to_string(),
        nixon: o.nixon.to_string(),
        label: game.label.to_string(),
        against: against.map(|g| g.label.to_string()),
        data_fingerprint: format!("{:016x}", rules.fingerprint),
        against_fingerprint: against.map(|g| format!("{:016x}", g.rules.fingerprint)),
    };
    let start = Instant::now();
    // Batches of consecutive games: the stopping rule looks only between
    // batches, so results do not depend on the thread count.
    let batch = if o.precision.is_some() {
        500.min(slice.games)
    } else {
        slice.games
    };
    // The threads the runner starts: never more than a batch's games.
    let threads = o
        .threads
        .clamp(1, usize::try_from(batch).unwrap_or(usize::MAX).max(1));
    let mut total = SimResult {
        against: against.map(|_| Tally::default()),
        paired: against.map(|_| Default::default()),
        ..Default::default()
    };
    let mut played = 0;
    while played < slice.games && !stop.load(Ordering::SeqCst) {
        let n = batch.min(slice.games - played);
        let cfg = SimConfig {
            games: n,
            seed: o.seed,
            first_game: slice.first_game + played,
            editor: o.editor.clone(),
            nixon: o.nixon.clone(),
            threads,
        };
        let offset = played;
        let part = simulate_compare_until(
            rules,
            against.map(|g| g.rules),
            &cfg,
            &|k| {
                if k % 16 == 0 {
                    progress(offset + k);
                }
            },
            stop,
        )
        .map_err(|e| match e {
            SimFailure::Game(f) => SimulateError::Failure {
                against: f.against && against.is_some(),
                failure: f,
            },
            SimFailure::Threads(t) => SimulateError::Message(t.to_string()),
        })?;
        total.merge(&part);
        // Fewer than `n` when Ctrl-C stopped the batch: the first games of it.
        played += part.tally.games;
        if let Some(p) = o.precision {
            if half_width(&total) <= p {
                break;
            }
        }
    }
    progress(played);
    let interrupted = stop.load(Ordering::SeqCst);
    let seconds = start.elapsed().as_secs_f64();
    let mut report = Report {
        run: key,
        slices: vec![Slice {
            first_game: slice.first_game,
            games: played,
        }],
        result: total,
    };
    // A shard keeps its run's size (its key for `merge`); a run cut short by
    // Ctrl-C or by --precision is a run of the games it played.
    report.run.games = if sliced || (o.precision.is_none() && !interrupted) {
        games
    } else {
        played
    };
    if o.precision.is_some() {
        report.slices = vec![Slice {
            first_game: 0,
            games: played,
        }];
    }
    let mut v = report.to_json();
    v["threads"] = json!(threads);
    v["seconds"] = json!(seconds);
    v["games_per_second"] = json!(played as f64 / seconds.max(1e-9));
    if let Some(s) = &o.shard {
        v["shard"] = json!(s);
    }
    if interrupted {
        mark_partial(&mut v, played, slice.games);
    }
    // Whether the games reached the precision asked: they stop at the
    // most allowed (`--games`) all the same, and the report must not let
    // a wider interval pass for the one asked.
    let precision = o.precision.map(|p| (p, half_width(&report.result)));
    if let Some((asked, reached)) = precision {
        v["precision"] = json!({"asked": asked, "half_width": reached, "met": reached <= asked});
    }
    Ok(Simulation {
        report,
        json: v,
        slice,
        played,
        interrupted,
        seconds,
        precision,
    })
}

/// Why a front end's run gave no report: the game does not load, the
/// options are wrong, a game failed, or it was stopped before there was
/// anything to report. Each front end shows it its own way (the CLI: a
/// message and an exit code; Python: an exception).
#[derive(Debug)]
pub enum RunError {
    /// The game's files do not load: every problem, each at its path:line:col.
    Data(Diagnostics),
    /// What is wrong with the options (or another failure), in words.
    Message(String),
    /// A game failed.
    Failure {
        /// The game that failed, with its index and seed.
        failure: GameFailure,
        /// Where it happened and how to replay it, shown under a card
        /// script's error (`in game 3 of …`, `reproduce: watergate …`).
        context: String,
        /// The whole report of a failure that is not a card script's.
        message: String,
    },
    /// Stopped (the stop flag) before any game finished, where a report
    /// needs at least one (a ladder's ratings).
    Interrupted(String),
}

impl From<LoadError> for RunError {
    fn from(e: LoadError) -> RunError {
        match e {
            LoadError::Data(d) => RunError::Data(d),
            LoadError::Message(m) => RunError::Message(m),
        }
    }
}

/// Where a failed game of a run seeded `run_seed` happened and the command
/// that replays it, as `watergate simulate` reports it.
fn failure_context(
    f: &GameFailure,
    game: &PlayedGame,
    run_seed: u64,
    editor: &AgentSpec,
    nixon: &AgentSpec,
) -> String {
    let again = game.command(single_game_seed(run_seed, f.index), editor, nixon);
    let mut context = format!(
        "in game {} of `{}` (seed {run_seed}, game seed {})",
        f.index, game.label, f.seed
    );
    if let Some(who) = &f.lookahead {
        context.push_str(&format!(", while {who} looked ahead"));
    }
    context.push_str(&format!("\nreproduce: {again}"));
    let timed = |a: &AgentSpec| matches!(a.budget(), Some(Budget::Millis(_)));
    if timed(editor) || timed(nixon) {
        context.push_str(
            "\n(an agent with a time budget decides differently on every run: use ismcts:N iterations to replay exactly)",
        );
    }
    context
}

/// The games a run plays when `--games` is not given: 1000, or with
/// `--precision` at most 1000000.
pub fn default_games(precision: Option<f64>) -> u64 {
    if precision.is_some() {
        1_000_000
    } else {
        1000
    }
}

/// A simulation as `watergate simulate` is asked for it: the game, what to
/// compare it with, and the options. Every front end (the CLI, Python)
/// fills this in and gets the same report for the same seed.
#[derive(Clone, Debug)]
pub struct SimulateRun {
    /// The game: `--data` and `--variant`.
    pub game: GameSource,
    /// `--against`: `shipped`, `base`, a data folder or a variant file
    /// (applied to this game's data) [default: no comparison].
    pub against: Option<String>,
    /// Games, seed, agents, precision, shard and threads.
    pub options: SimulateOptions,
    /// `--report-peak-memory`: add the process's peak memory to the JSON
    /// (`peak_memory_kib`, Linux).
    pub report_peak_memory: bool,
}

/// A simulation whose games are loaded and checked, ready to play.
pub struct LoadedSimulation {
    /// The game played.
    pub game: PlayedGame,
    /// The game compared with, if any.
    pub against: Option<PlayedGame>,
    run: SimulateRun,
}

impl SimulateRun {
    /// Loads the game and the compared one (refused when they are the same
    /// game).
    pub fn load(&self) -> Result<LoadedSimulation, RunError> {
        let data = self.game.data.as_deref();
        let game = PlayedGame::load(data, self.game.variant.as_deref())?;
        let against = match self.against.as_deref() {
            None => None,
            Some(spec) => Some(against_game(spec, data, &game)?),
        };
        Ok(LoadedSimulation {
            game,
            against,
            run: self.clone(),
        })
    }
}

impl LoadedSimulation {
    /// Plays the run: `progress` (if any) hears the games finished so far;
    /// once `stop` is set no game starts and the report is of the games
    /// played (marked partial).
    pub fn simulate(
        &self,
        stop: &AtomicBool,
        progress: Option<&(dyn Fn(u64) + Sync)>,
    ) -> Result<Simulation, RunError> {
        let o = &self.run.options;
        let sim = simulate(
            self.game.played(),
            self.against.as_ref().map(PlayedGame::played),
            o,
            progress.unwrap_or(&|_| {}),
            stop,
        );
        let mut sim = sim.map_err(|e| match e {
            SimulateError::Message(m) => RunError::Message(m),
            SimulateError::Failure { failure, against } => {
                let which = match (&self.against, against) {
                    (Some(g), true) => g,
                    _ => &self.game,
                };
                let context = failure_context(&failure, which, o.seed, &o.editor, &o.nixon);
                let message = format!("{}\n  {}", failure.error, context.replace('\n', "\n  "));
                RunError::Failure {
                    failure,
                    context,
                    message,
                }
            }
        })?;
        if self.run.report_peak_memory {
            sim.json["peak_memory_kib"] = json!(crate::bench::peak_rss_kib());
        }
        Ok(sim)
    }
}

/// `watergate simulate --json` as one call: loads the games of `run`,
/// plays them and returns the JSON object the CLI prints for the same
/// options and seed (its timing fields aside). `progress` (if any) hears
/// the games finished so far; once `stop` is set (Ctrl-C) no game starts
/// and the object is of the games played, marked `partial`.
pub fn simulate_json(
    run: &SimulateRun,
    stop: &AtomicBool,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Result<serde_json::Value, RunError> {
    Ok(run.load()?.simulate(stop, progress)?.json)
}

/// Marks the JSON report of a run that `stop` ended early: `partial`, the
/// games finished and the games asked (simulate, sweep and ladder alike).
pub fn mark_partial(v: &mut serde_json::Value, finished: u64, asked: u64) {
    v["partial"] = json!(true);
    v["games_finished"] = json!(finished);
    v["games_asked"] = json!(asked);
}

fn half_width(r: &SimResult) -> f64 {
    match &r.paired {
        Some(p) => p.difference().half_width(),
        None => wilson(r.tally.editor_wins, r.tally.games, Z95).half_width(),
    }
}

/// A run's results, as written by `--json` and read back by `merge`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub run: RunKey,
    pub slices: Vec<Slice>,
    pub result: SimResult,
}

fn interval_json(i: Interval) -> serde_json::Value {
    json!({ "estimate": i.estimate, "low": i.low, "high": i.high })
}

fn tally_json(t: &Tally) -> serde_json::Value {
    let cards: serde_json::Map<String, serde_json::Value> = t
        .cards
        .iter()
        .map(|(id, c)| {
            (
                id.clone(),
                json!({
                    "value_plays": c.value_plays,
                    "action_plays": c.action_plays,
                    "action_games": c.action_games,
                    "action_wins": c.action_wins,
                    // None (null) for a card never played for its action,
                    // as the text shows "—": an estimate of 0.0 read as a
                    // card whose action always lost.
                    "win_rate_when_action_used": (c.action_games > 0)
                        .then(|| interval_json(wilson(c.action_wins, c.action_games, Z95))),
                }),
            )
        })
        .collect();
    json!({
        "games": t.games,
        "editor_wins": t.editor_wins,
        "nixon_wins": t.nixon_wins,
        "editor_win_rate": interval_json(wilson(t.editor_wins, t.games, Z95)),
        "nixon_win_rate": interval_json(wilson(t.nixon_wins, t.games, Z95)),
        "win_causes": t.win_causes,
        "mean_rounds": t.mean_rounds(),
        "sd_rounds": t.sd_rounds(),
        "rounds_histogram": t.rounds_histogram,
        "cards": cards,
    })
}

/// Per card, the win rate of its side when its action was used: this run
/// against the other (a card only one of them has: `None` on the other).
struct CardDiff<'a> {
    id: &'a str,
    this: Option<&'a crate::sim::CardTally>,
    other: Option<&'a crate::sim::CardTally>,
}

impl CardDiff<'_> {
    fn rate(c: Option<&crate::sim::CardTally>) -> Option<Interval> {
        c.filter(|c| c.action_games > 0)
            .map(|c| wilson(c.action_wins, c.action_games, Z95))
    }

    /// This run's rate minus the other's (Newcombe's interval: the games in
    /// which a card's action was used differ between the runs).
    fn difference(&self) -> Option<Interval> {
        Some(newcombe(Self::rate(self.this)?, Self::rate(self.other)?))
    }

    /// Whether the difference is clear when `compared` cards are looked at
    /// together: its interval at 95 %/`compared` (Bonferroni's correction)
    /// leaves out 0. Each card alone at 95 % would mark about two of forty
    /// cards an edit does not touch, by chance alone, in every comparison.
    fn clear(&self, compared: usize) -> bool {
        let z = z_two_sided(0.05 / compared.max(1) as f64);
        let rate = |c: Option<&crate::sim::CardTally>| {
            c.filter(|c| c.action_games > 0)
                .map(|c| wilson(c.action_wins, c.action_games, z))
        };
        match (rate(self.this), rate(self.other)) {
            (Some(a), Some(b)) => significant(&newcombe(a, b)),
            _ => false,
        }
    }
}

/// How many cards have a difference to test (both runs used their action).
fn compared(diffs: &[CardDiff<'_>]) -> usize {
    diffs.iter().filter(|d| d.difference().is_some()).count()
}

fn card_diffs<'a>(a: &'a Tally, b: &'a Tally) -> Vec<CardDiff<'a>> {
    let ids: std::collections::BTreeSet<&String> = a.cards.keys().chain(b.cards.keys()).collect();
    ids.into_iter()
        .map(|id| CardDiff {
            id,
            this: a.cards.get(id),
            other: b.cards.get(id),
        })
        .collect()
}

/// One card of a report: plays for value and for action, and the win rate
/// of its side in the games where its action was used (this game, the
/// compared one, and the difference): the per-card report every front end
/// shows (the CLI's table and JSON, the studio's lab).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct CardRow {
    /// The card's id (`nixon.howard_hunt`).
    pub id: String,
    /// Plays for its value, in this game.
    pub value_plays: u64,
    /// Plays for its action, in this game.
    pub action_plays: u64,
    /// Its side's win rate when its action was used, in this game.
    pub action_win_rate: Option<Interval>,
    /// The same in the compared game.
    pub other_action_win_rate: Option<Interval>,
    /// This game's rate minus the other's (Newcombe's interval).
    pub difference: Option<Interval>,
    /// The difference is clear across every card compared: its interval
    /// at 95 % divided by their number (Bonferroni) leaves out 0.
    pub significant: bool,
}

/// The per-card rows of `this` (compared with `other`), by card id; a card
/// only one game has is in the list too.
pub fn card_rows(this: &Tally, other: Option<&Tally>) -> Vec<CardRow> {
    let empty = Tally::default();
    let diffs = card_diffs(this, other.unwrap_or(&empty));
    let k = compared(&diffs);
    diffs
        .into_iter()
        .filter(|d| d.this.is_some() || other.is_some())
        .map(|d| {
            let difference = d.difference();
            let significant = d.clear(k);
            CardRow {
                id: d.id.to_string(),
                value_plays: d.this.map_or(0, |c| c.value_plays),
                action_plays: d.this.map_or(0, |c| c.action_plays),
                action_win_rate: CardDiff::rate(d.this),
                other_action_win_rate: CardDiff::rate(d.other),
                significant,
                difference,
            }
        })
        .collect()
}

fn significant(i: &Interval) -> bool {
    i.low > 0.0 || i.high < 0.0
}

/// A CSV field (quoted when it holds a comma, quote or line break).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Report {
    pub fn to_json(&self) -> serde_json::Value {
        let t = &self.result.tally;
        let mut v = tally_json(t);
        v["label"] = json!(self.run.label);
        v["run"] = json!(self.run);
        v["slices"] = json!(self.slices);
        v["raw"] = json!(self.result);
        if let Some(b) = &self.result.against {
            let mut o = tally_json(b);
            o["label"] = json!(self.run.against);
            v["against"] = o;
            let cards: serde_json::Map<String, serde_json::Value> = card_diffs(t, b)
                .iter()
                .map(|d| {
                    (
                        d.id.to_string(),
                        json!({
                            "win_rate_when_action_used": d.difference().map(interval_json),
                            "action_plays_per_game": [
                                d.this.map(|c| c.action_plays as f64 / t.games.max(1) as f64),
                                d.other.map(|c| c.action_plays as f64 / b.games.max(1) as f64),
                            ],
                        }),
                    )
                })
                .collect();
            v["card_differences"] = json!(cards);
            v["difference_in_mean_rounds"] = json!(t.mean_rounds() - b.mean_rounds());
        }
        if let Some(p) = &self.result.paired {
            v["difference_in_editor_win_rate"] = interval_json(p.difference());
            if let Some(i) = p.rounds_difference() {
                v["difference_in_mean_rounds_paired"] = interval_json(i);
            }
        }
        v
    }

    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let t = &self.result.tally;
        let k = &self.run;
        let _ = match &k.against {
            None => writeln!(
                out,
                "{}, seed {}: Editor ({}) vs Nixon ({}) — {}",
                games(t.games),
                k.seed,
                k.editor,
                k.nixon,
                k.label
            ),
            Some(o) => writeln!(
                out,
                "{}, seed {}: Editor ({}) vs Nixon ({}) — {} against {}, on the same seeds",
                games(t.games),
                k.seed,
                k.editor,
                k.nixon,
                k.label,
                o
            ),
        };
        // An empty shard (`--shard 1/4` of 3 games) has nothing to report:
        // a table of zeros with 0–100 % intervals would read as a result.
        if t.games == 0 {
            let _ = if k.games > 0 {
                writeln!(
                    out,
                    "  no games in this shard: a run of {} split into more shards than games \
                     leaves some empty (its --json still merges)",
                    games(k.games)
                )
            } else {
                writeln!(out, "  no games were played")
            };
            return out;
        }
        let mut runs = vec![(k.label.clone(), t)];
        if let (Some(b), Some(bn)) = (&self.result.against, &k.against) {
            runs.push((bn.clone(), b));
        }
        for (label, t) in &runs {
            if runs.len() > 1 {
                let _ = writeln!(out, "{label}:");
            }
            for side in [Side::Editor, Side::Nixon] {
                let w = t.wins(side);
                let i = wilson(w, t.games, Z95);
                let _ = writeln!(
                    out,
                    "  {:<7} wins {:>8}  {:5.1}%  (95% CI {:.1}–{:.1}%)",
                    side.name(),
                    w,
                    100.0 * i.estimate,
                    100.0 * i.low,
                    100.0 * i.high
                );
            }
            let _ = writeln!(out, "  how games were won:");
            for cause in WinCause::ALL {
                let n = t.win_causes.get(cause.key()).copied().unwrap_or(0);
                let _ = writeln!(
                    out,
                    "    {:<32} {:>8}  ({:5.1}%)",
                    cause.describe(),
                    n,
                    100.0 * n as f64 / t.games.max(1) as f64
                );
            }
            let _ = writeln!(
                out,
                "  rounds: mean {:.2}, sd {:.2}; distribution: {}",
                t.mean_rounds(),
                t.sd_rounds(),
                t.rounds_histogram
                    .iter()
                    .map(|(r, n)| format!("{r}:{:.1}%", 100.0 * *n as f64 / t.games.max(1) as f64))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        if let (Some(p), Some(o), Some(b)) = (&self.result.paired, &k.against, &self.result.against)
        {
            let d = p.difference();
            let _ = writeln!(
                out,
                "difference in the Editor's win rate ({} − {}, paired on the same seeds): {:+.1} points (95% CI {:+.1} to {:+.1}){}",
                k.label,
                o,
                points(d.estimate),
                points(d.low),
                points(d.high),
                if significant(&d) { " — significant" } else { " — not significant at 95%" }
            );
            // With its interval when the pairs' lengths were kept (two
            // pairs or more, and no shard from an older build merged in).
            let _ = match p.rounds_difference() {
                Some(i) => writeln!(
                    out,
                    "difference in mean game length (paired): {:+.2} rounds (95% CI {:+.2} to {:+.2}){}",
                    t.mean_rounds() - b.mean_rounds(),
                    i.low,
                    i.high,
                    if significant(&i) { " — significant" } else { " — not significant at 95%" }
                ),
                None => writeln!(
                    out,
                    "difference in mean game length: {:+.2} rounds (no interval: fewer than 2 pairs, or a shard without their lengths)",
                    t.mean_rounds() - b.mean_rounds()
                ),
            };
            let diffs = card_diffs(t, b);
            let tested = compared(&diffs);
            let _ = writeln!(
                out,
                "cards: win rate of its side when its action was used (action plays per game), {} against {}; 95% intervals; * clear across the {tested} cards compared (Bonferroni: each at 95%/{tested}):",
                k.label, o
            );
            let cell = |c: Option<&crate::sim::CardTally>, games: u64| match c {
                None => "not in this game".to_string(),
                Some(c) => match CardDiff::rate(Some(c)) {
                    None => format!("— ({:.2})", c.action_plays as f64 / games.max(1) as f64),
                    Some(i) => format!(
                        "{:5.1}% ({:.2})",
                        100.0 * i.estimate,
                        c.action_plays as f64 / games.max(1) as f64
                    ),
                },
            };
            let _ = writeln!(
                out,
                "  {:<38} {:<17} {:<17} difference (points)",
                "card", "this game", "compared game"
            );
            for d in diffs {
                let diff = match d.difference() {
                    None => "—".to_string(),
                    Some(i) => format!(
                        "{:+5.1} ({:+.1} to {:+.1}){}",
                        points(i.estimate),
                        points(i.low),
                        points(i.high),
                        if d.clear(tested) { " *" } else { "" }
                    ),
                };
                let _ = writeln!(
                    out,
                    "  {:<38} {:<17} {:<17} {}",
                    d.id,
                    cell(d.this, t.games),
                    cell(d.other, b.games),
                    diff
                );
            }
            return out;
        }
        let _ = writeln!(
            out,
            "cards (plays for value / for action; win rate of its side when its action was used):"
        );
        for (id, c) in &t.cards {
            let i = wilson(c.action_wins, c.action_games, Z95);
            let _ = writeln!(
                out,
                "  {:<38} {:>8} / {:<8} {}",
                id,
                c.value_plays,
                c.action_plays,
                if c.action_games == 0 {
                    "—".to_string()
                } else {
                    format!(
                        "{:5.1}% ({:.1}–{:.1}%)",
                        100.0 * i.estimate,
                        100.0 * i.low,
                        100.0 * i.high
                    )
                }
            );
        }
        out
    }

    /// One row per figure: run (its label), section, key, value (and
    /// interval bounds); the differences have run `difference`.
    pub fn csv(&self) -> String {
        let mut out = String::from("run,section,key,value,low,high\n");
        let mut runs = vec![(self.run.label.as_str(), &self.result.tally)];
        if let (Some(b), Some(l)) = (&self.result.against, &self.run.against) {
            runs.push((l.as_str(), b));
        }
        for (label, t) in &runs {
            let run = csv_field(label);
            out.push_str(&format!("{run},games,all,{},,\n", t.games));
            for side in [Side::Editor, Side::Nixon] {
                let i = wilson(t.wins(side), t.games, Z95);
                out.push_str(&format!(
                    "{run},win_rate,{},{:.6},{:.6},{:.6}\n",
                    side.key(),
                    i.estimate,
                    i.low,
                    i.high
                ));
            }
            for (cause, n) in &t.win_causes {
                out.push_str(&format!("{run},win_cause,{cause},{n},,\n"));
            }
            out.push_str(&format!("{run},rounds,mean,{:.6},,\n", t.mean_rounds()));
            out.push_str(&format!("{run},rounds,sd,{:.6},,\n", t.sd_rounds()));
            for (r, n) in &t.rounds_histogram {
                out.push_str(&format!("{run},rounds_histogram,{r},{n},,\n"));
            }
            for (id, c) in &t.cards {
                out.push_str(&format!(
                    "{run},card_value_plays,{id},{},,\n",
                    c.value_plays
                ));
                out.push_str(&format!(
                    "{run},card_action_plays,{id},{},,\n",
                    c.action_plays
                ));
                let i = wilson(c.action_wins, c.action_games, Z95);
                out.push_str(&format!(
                    "{run},card_action_win_rate,{id},{:.6},{:.6},{:.6}\n",
                    i.estimate, i.low, i.high
                ));
            }
        }
        if let Some(p) = &self.result.paired {
            let d = p.difference();
            out.push_str(&format!(
                "difference,editor_win_rate,paired,{:.6},{:.6},{:.6}\n",
                d.estimate, d.low, d.high
            ));
            if let Some(i) = p.rounds_difference() {
                out.push_str(&format!(
                    "difference,mean_rounds,paired,{:.6},{:.6},{:.6}\n",
                    i.estimate, i.low, i.high
                ));
            }
        }
        if let Some(b) = &self.result.against {
            for d in card_diffs(&self.result.tally, b) {
                if let Some(i) = d.difference() {
                    out.push_str(&format!(
                        "difference,card_action_win_rate,{},{:.6},{:.6},{:.6}\n",
                        d.id, i.estimate, i.low, i.high
                    ));
                }
            }
        }
        out
    }
}

impl Report {
    /// A report from its `simulate --json` form (`run`, `slices`, `raw`).
    pub fn from_json(v: &serde_json::Value) -> Result<Report, String> {
        if v.get("sweep").is_some() {
            return Err(
                "a `sweep --json` result: combine sweep shards with `watergate sweep --merge FILE...`"
                    .into(),
            );
        }
        if v.get("run").is_none() {
            return Err(
                "not a `simulate --json` result (it has no `run`): merge takes what `simulate --shard I/N --json` prints"
                    .into(),
            );
        }
        Ok(Report {
            run: serde_json::from_value(v["run"].clone())
                .map_err(|e| format!("no run description: {e}"))?,
            slices: serde_json::from_value(v["slices"].clone())
                .map_err(|e| format!("no slices: {e}"))?,
            result: serde_json::from_value(v["raw"].clone())
                .map_err(|e| format!("no raw sums: {e}"))?,
        })
    }

    /// How many of the run's games the slices cover.
    pub fn covered(&self) -> u64 {
        self.slices.iter().map(|s| s.games).sum()
    }
}

/// Shards of one run combined exactly: each named report (a file's name,
/// a shard's number) must be of the same run, and no game may be counted
/// twice. The slices come out in game order.
pub fn merge_reports(reports: Vec<(String, Report)>) -> Result<Report, String> {
    let mut merged: Option<Report> = None;
    for (name, report) in reports {
        match &mut merged {
            None => merged = Some(report),
            Some(m) => {
                if m.run != report.run {
                    return Err(format!(
                        "{name} is from another run: {}",
                        report.run.differences(&m.run)
                    ));
                }
                for s in &report.slices {
                    if m.slices.iter().any(|t| {
                        s.first_game < t.first_game + t.games
                            && t.first_game < s.first_game + s.games
                    }) {
                        return Err(format!(
                            "{name}: games {}..{} were already counted",
                            s.first_game,
                            s.first_game + s.games
                        ));
                    }
                }
                m.slices.extend(report.slices.iter().cloned());
                m.result.merge(&report.result);
            }
        }
    }
    let mut m = merged.ok_or_else(|| "nothing to merge: no result given".to_string())?;
    m.slices.sort_by_key(|s| s.first_game);
    // Shards that meet make one slice: all the shards of a run merge to
    // the report of the whole run, slices included.
    let mut joined: Vec<Slice> = Vec::new();
    for s in m.slices.drain(..) {
        match joined.last_mut() {
            Some(last) if last.first_game + last.games == s.first_game => last.games += s.games,
            _ => joined.push(s),
        }
    }
    m.slices = joined;
    Ok(m)
}

/// "1 game", "200 games".
fn games(n: u64) -> String {
    crate::game::wording::count(n as usize, "game")
}
