//! Parameter sweeps: the same games (same seeds, same agents) played at every
//! value of one or two parameters, to answer "what value of this makes the
//! game even?". A sweep point is a house-rule variant (`crates/core/src/data/variant.rs`)
//! built from the parameter values, so a sweep changes exactly what a
//! variant file could, and reports problems the same way.

use crate::data::variant::Variant;
use crate::data::{DataSet, GameSource};
use crate::game::rules::Rules;
use crate::players::agent::AgentSpec;
use crate::report::{mark_partial, parse_shard, RunError};
use crate::sim::{simulate_compare_until, SimConfig, Tally};
use crate::stats::{wilson, Interval, Z95};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a parameter changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// A field of one card (`card.nixon.gordon_liddy.value`).
    Card { id: String, field: String },
    /// A number of `cards/game.ron` (`game.evidence_per_round`).
    Game { field: String },
    /// A setting (`settings.momentum_symbol_steps`).
    Setting { field: String },
    /// A count of one evidence group (`tokens.blue*.in_bag`, `tokens.blue/yellow.in_reserve`).
    Tokens {
        colours: Vec<String>,
        momentum_symbol: bool,
        field: String,
    },
    /// Whole variant files (`variant=a.ron,b.ron`), applied after `--variant`.
    Variant,
    /// Whole data roots (`data=dir1,dir2`), each replacing `--data`.
    Data,
}

/// One swept parameter: what it changes and the values it takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// As written on the command line, before `=`.
    pub name: String,
    pub target: Target,
    pub values: Vec<String>,
}

/// Splits at commas outside brackets, so `[Blue, Yellow]` stays one value.
fn split_values(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    // A comma inside a RON string ("Liddy, G.") is the string's.
    let (mut quoted, mut escaped) = (false, false);
    for ch in s.chars() {
        match ch {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '[' | '(' if !quoted => depth += 1,
            ']' | ')' if !quoted => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 && !quoted {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(ch);
        }
    }
    out.push(cur.trim().to_string());
    out
}

const FORMS: &str = "card.ID.FIELD, game.FIELD, settings.FIELD, tokens.KIND.in_bag|in_reserve (KIND like blue, blue*, blue/yellow), variant or data";

impl Param {
    /// Parses `NAME=V1,V2,…`.
    pub fn parse(s: &str) -> Result<Param, String> {
        let (name, values) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}`: expected NAME=V1,V2,… where NAME is one of {FORMS}"))?;
        let name = name.trim().to_string();
        let values = split_values(values);
        if values.iter().any(String::is_empty) {
            return Err(format!("`{s}`: an empty value; expected V1,V2,…"));
        }
        // A value twice is a point played twice on the same seeds: the same
        // figures in two rows, which read as a result confirmed.
        for (i, v) in values.iter().enumerate() {
            if values[..i].contains(v) {
                return Err(format!(
                    "`{s}`: the value {v} is given twice; a sweep plays each value once"
                ));
            }
        }
        let target = match name.split_once('.') {
            None if name == "variant" => Target::Variant,
            None if name == "data" => Target::Data,
            Some(("card", rest)) => match rest.rsplit_once('.') {
                Some((id, field)) if !id.is_empty() && !field.is_empty() => Target::Card {
                    id: id.to_string(),
                    field: field.to_string(),
                },
                _ => {
                    return Err(format!(
                        "`{name}`: expected card.ID.FIELD, like card.nixon.gordon_liddy.value"
                    ))
                }
            },
            Some(("game", field)) if !field.is_empty() => Target::Game {
                field: field.to_string(),
            },
            Some(("settings", field)) if !field.is_empty() => Target::Setting {
                field: field.to_string(),
            },
            Some(("tokens", rest)) => {
                let bad = || {
                    format!("`{name}`: expected tokens.KIND.in_bag or tokens.KIND.in_reserve, KIND like blue, green*, blue/yellow")
                };
                let (kind, field) = rest.rsplit_once('.').ok_or_else(bad)?;
                if field != "in_bag" && field != "in_reserve" {
                    return Err(bad());
                }
                let momentum_symbol = kind.ends_with('*');
                let colours = kind
                    .trim_end_matches('*')
                    .split('/')
                    .map(|c| {
                        let mut ch = c.trim().chars();
                        ch.next()
                            .map(|f| {
                                format!(
                                    "{}{}",
                                    f.to_ascii_uppercase(),
                                    ch.as_str().to_ascii_lowercase()
                                )
                            })
                            .unwrap_or_default()
                    })
                    .collect::<Vec<_>>();
                if colours
                    .iter()
                    .any(|c| !["Blue", "Yellow", "Green"].contains(&c.as_str()))
                {
                    return Err(bad());
                }
                Target::Tokens {
                    colours,
                    momentum_symbol,
                    field: field.to_string(),
                }
            }
            _ => return Err(format!("`{name}`: expected one of {FORMS}")),
        };
        Ok(Param {
            name,
            target,
            values,
        })
    }
}

/// A sweep point: one value index per parameter.
pub type Point = Vec<usize>;

/// Every combination of the parameters' values, the first parameter slowest.
pub fn points(params: &[Param]) -> Vec<Point> {
    let mut out: Vec<Point> = vec![vec![]];
    for p in params {
        out = out
            .into_iter()
            .flat_map(|pt| {
                (0..p.values.len()).map(move |i| {
                    let mut q = pt.clone();
                    q.push(i);
                    q
                })
            })
            .collect();
    }
    out
}

/// The text of the variant that sets the point's card, game, setting and
/// token parameters (None when it sets none).
pub fn point_variant_text(params: &[Param], point: &Point) -> Option<String> {
    let mut cards = Vec::new();
    let mut game = Vec::new();
    let mut settings = Vec::new();
    let mut tokens = Vec::new();
    for (p, &i) in params.iter().zip(point) {
        let v = &p.values[i];
        match &p.target {
            Target::Card { id, field } => cards.push(format!("(id: {id:?}, {field}: {v})")),
            Target::Game { field } => game.push(format!("{field}: {v}")),
            Target::Setting { field } => settings.push(format!("{field}: {v}")),
            Target::Tokens {
                colours,
                momentum_symbol,
                field,
            } => tokens.push(format!(
                "(colours: [{}], momentum_symbol: {momentum_symbol}, {field}: {v})",
                colours.join(", ")
            )),
            Target::Variant | Target::Data => {}
        }
    }
    if cards.is_empty() && game.is_empty() && settings.is_empty() && tokens.is_empty() {
        return None;
    }
    let mut text = format!("Variant(\n    name: {:?},\n", label(params, point));
    if !game.is_empty() {
        text += &format!("    game: ({}),\n", game.join(", "));
    }
    if !settings.is_empty() {
        text += &format!("    settings: ({}),\n", settings.join(", "));
    }
    if !cards.is_empty() {
        text += &format!("    cards: [{}],\n", cards.join(", "));
    }
    if !tokens.is_empty() {
        text += &format!("    token_counts: [{}],\n", tokens.join(", "));
    }
    text.push_str(")\n");
    Some(text)
}

/// `name=value` for each parameter, joined by spaces.
pub fn label(params: &[Param], point: &Point) -> String {
    params
        .iter()
        .zip(point)
        .map(|(p, &i)| format!("{}={}", p.name, p.values[i]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A card id as written (`gordon_liddy`) resolved to the data's
/// (`nixon.gordon_liddy`) when it names exactly one card.
fn resolve_card(id: &str, rules: &Rules) -> String {
    if rules.cards.iter().any(|c| c.id == id) {
        return id.to_string();
    }
    let matches: Vec<_> = rules
        .cards
        .iter()
        .filter(|c| c.id.rsplit('.').next() == Some(id))
        .collect();
    match matches.as_slice() {
        [one] => one.id.clone(),
        _ => id.to_string(),
    }
}

/// The point whose every value is the one the game the sweep starts from
/// (the base data and `--variant`) has: for each parameter, the first of
/// its values that leaves what it targets as it was (the card's file read
/// back, the game's numbers and settings, the token mix). `None` when a
/// parameter has no such value, or names whole variants or data folders;
/// also when a point does not load (the run reports that).
fn base_point(setup: &Setup, params: &[Param]) -> Option<Point> {
    let base = point_dataset(setup, &[], &Vec::new()).ok()?;
    params
        .iter()
        .map(|p| {
            (0..p.values.len()).find(|&i| {
                point_dataset(setup, std::slice::from_ref(p), &vec![i])
                    .is_ok_and(|ds| same_target(&base, &ds, &p.target))
            })
        })
        .collect()
}

/// Whether what `target` changes is the same in the two games.
fn same_target(a: &DataSet, b: &DataSet, target: &Target) -> bool {
    use crate::data::raw::{GameDef, PlayerCardDef, TokensDef};
    use crate::data::validate::{GAME_FILE, TOKENS_FILE};
    fn read<T: serde::de::DeserializeOwned>(ds: &DataSet, rel: &str) -> Option<T> {
        crate::data::parse_file::<T>(ds, rel).ok().map(|p| p.def)
    }
    match target {
        Target::Variant | Target::Data => false,
        Target::Card { id, .. } => {
            // The card's file in each game, found by its id (or its id
            // without the side, as `--param` takes it).
            let card = |ds: &DataSet| {
                ds.files
                    .keys()
                    .filter(|rel| rel.starts_with("cards/") && rel.ends_with(".ron"))
                    .filter_map(|rel| read::<PlayerCardDef>(ds, rel))
                    .find(|c| c.id == *id || c.id.rsplit('.').next() == Some(id.as_str()))
            };
            card(a).is_some_and(|c| Some(c) == card(b))
        }
        // A variant that sets a number renames the game: the names aside.
        Target::Game { .. } | Target::Setting { .. } => {
            match (read::<GameDef>(a, GAME_FILE), read::<GameDef>(b, GAME_FILE)) {
                (Some(x), Some(y)) => {
                    GameDef {
                        name: y.name.clone(),
                        ..x
                    } == y
                }
                _ => false,
            }
        }
        Target::Tokens { .. } => {
            read::<TokensDef>(a, TOKENS_FILE).is_some_and(|x| Some(x) == read(b, TOKENS_FILE))
        }
    }
}

/// Where the sweep's games come from.
pub struct Setup<'a> {
    pub base: &'a DataSet,
    /// The command line's `--variant`, applied to every point first.
    pub variant: Option<&'a Path>,
}

/// The rules of one point: the base data (or the point's data root), then
/// `--variant`, then the point's variant file, then its parameter values.
pub fn point_rules(setup: &Setup, params: &[Param], point: &Point) -> Result<Rules, String> {
    let ds = point_dataset(setup, params, point)?;
    crate::data::load(&ds).map_err(shown)
}

/// Diagnostics as lines of text, as a sweep reports a point that does not load.
fn shown(d: crate::diag::Diagnostics) -> String {
    d.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The files of one point, as [`point_rules`] loads them: the base data (or
/// the point's data root), then `--variant`, then the point's variant
/// file, then its parameter values. A cluster's workers load these, so
/// they need neither the data folder nor the variant files on their disk.
pub fn point_dataset(setup: &Setup, params: &[Param], point: &Point) -> Result<DataSet, String> {
    let mut ds = setup.base.clone();
    for (p, &i) in params.iter().zip(point) {
        if p.target == Target::Data {
            ds = DataSet::from_dir(Path::new(&p.values[i])).map_err(shown)?;
        }
    }
    if let Some(v) = setup.variant {
        ds = Variant::from_file(v)
            .and_then(|v| v.apply(&ds))
            .map_err(shown)?;
    }
    for (p, &i) in params.iter().zip(point) {
        if p.target == Target::Variant {
            ds = Variant::from_file(Path::new(&p.values[i]))
                .and_then(|v| v.apply(&ds))
                .map_err(shown)?;
        }
    }
    // Card ids may be written without their side.
    let here = crate::data::load(&ds).map_err(shown)?;
    let params: Vec<Param> = params
        .iter()
        .map(|p| match &p.target {
            Target::Card { id, field } => Param {
                target: Target::Card {
                    id: resolve_card(id, &here),
                    field: field.clone(),
                },
                ..p.clone()
            },
            _ => p.clone(),
        })
        .collect();
    match point_variant_text(&params, point) {
        None => Ok(ds),
        Some(text) => {
            // The point is a variant written here, not a file: its problems
            // are shown without the generated text's line and column.
            let shown_name = format!("sweep point {}", label(&params, point));
            Variant::from_text(&shown_name, &text, PathBuf::new())
                .and_then(|v| v.apply(&ds))
                .map_err(|d| {
                    shown(crate::diag::Diagnostics(
                        d.0.into_iter()
                            .map(|x| {
                                if x.path == shown_name {
                                    crate::diag::Diagnostic::unread(
                                        x.path,
                                        point_message(&x.message),
                                    )
                                } else {
                                    x
                                }
                            })
                            .collect(),
                    ))
                })
        }
    }
}

/// A parse problem of a point's generated variant, in a sweep's words:
/// there is no file to go on in, and a list value (`colours`) wants its
/// brackets, which `--param` takes value by value.
fn point_message(message: &str) -> String {
    let message = message
        .strip_suffix(crate::data::recover::CANNOT_GO_ON)
        .map_or(message, |m| m.trim_end_matches("; "));
    // The generated text's own field path (`token_counts[0].in_bag`) is
    // no name the user wrote: the point's label names the parameter.
    let message = match message.strip_prefix('`').and_then(|m| m.split_once("`: ")) {
        Some((path, rest)) if path.contains('[') => rest,
        _ => message,
    };
    if message.contains("expected a list in brackets") {
        format!("{message}: a list value is written in brackets, one list a value, as in `card.gordon_liddy.colours=[Blue],[Blue,Green]`")
    } else {
        message.to_string()
    }
}

/// What identifies a sweep, so its shards can be merged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepKey {
    pub params: Vec<Param>,
    pub games: u64,
    pub seed: u64,
    pub editor: String,
    pub nixon: String,
    pub variant: Option<String>,
    /// The game every point starts from, as commands name it ("the shipped
    /// game", "`mydata`"): shards of sweeps on different games never merge.
    #[serde(default)]
    pub game: String,
    /// The point whose values are the ones the game every point starts
    /// from has (`card.gordon_liddy.value=3` on the shipped game): the row
    /// a designer reads the others against. `None` when a value is not
    /// among those swept, or for `variant=` and `data=` sweeps.
    #[serde(default)]
    pub base: Option<Point>,
}

/// The games of one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointResult {
    pub point: Point,
    pub label: String,
    pub tally: Tally,
}

/// A sweep's results (or a shard's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepResult {
    pub key: SweepKey,
    /// Game indices played at every point: `first..first + games`, per shard.
    pub slices: Vec<(u64, u64)>,
    pub points: Vec<PointResult>,
}

/// Why a sweep stopped: a point that does not load (in words), or a game
/// that failed at a point (a card script's failure among them).
#[derive(Debug)]
pub enum SweepError {
    Message(String),
    Failure {
        /// The point's label (`card.gordon_liddy.value=2`).
        point: String,
        /// The point as `--param` arguments, one `NAME=VALUE` each: what
        /// plays it again alone.
        params: Vec<String>,
        failure: crate::sim::GameFailure,
    },
}

impl std::fmt::Display for SweepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SweepError::Message(m) => f.write_str(m),
            SweepError::Failure { point, failure, .. } => write!(f, "at {point}: {failure}"),
        }
    }
}

/// Runs games `first..first + games` at every point, on the same seeds.
/// `progress` gets the number of games finished over all points. The
/// agents are the Editor's and Nixon's.
pub fn run(
    setup: &Setup,
    key: &SweepKey,
    (first, games): (u64, u64),
    (editor, nixon): (&AgentSpec, &AgentSpec),
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> Result<SweepResult, SweepError> {
    let pts = points(&key.params);
    // Build every point first, so a bad value is reported before any game.
    let rules = pts
        .iter()
        .map(|p| point_rules(setup, &key.params, p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(SweepError::Message)?;
    let mut out = Vec::new();
    for (k, (pt, r)) in pts.iter().zip(&rules).enumerate() {
        let cfg = SimConfig {
            games,
            seed: key.seed,
            first_game: first,
            editor: editor.clone(),
            nixon: nixon.clone(),
            threads,
        };
        let done = k as u64 * games;
        // Once `stop` is set (Ctrl-C) no game starts: the point under way
        // keeps its first games, the later points are left out.
        let tally = simulate_compare_until(r, None, &cfg, &|n| progress(done + n), stop)
            .map_err(|e| match e {
                crate::sim::SimFailure::Game(failure) => SweepError::Failure {
                    point: label(&key.params, pt),
                    params: (key.params.iter().zip(pt))
                        .map(|(p, &i)| format!("{}={}", p.name, p.values[i]))
                        .collect(),
                    failure,
                },
                crate::sim::SimFailure::Threads(t) => SweepError::Message(t.to_string()),
            })?
            .tally;
        if tally.games > 0 {
            out.push(PointResult {
                point: pt.clone(),
                label: label(&key.params, pt),
                tally,
            });
        }
        if stop.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
    }
    Ok(SweepResult {
        key: key.clone(),
        slices: vec![(first, games)],
        points: out,
    })
}

/// A sweep as `watergate sweep` is asked for it: the game every point
/// starts from, the parameters and the options. Every front end (the CLI,
/// Python) fills this in and gets the same results for the same seed.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// The game every point starts from: `--data`, and `--variant`, applied
    /// at every point before the point's values.
    pub game: GameSource,
    /// One or two parameters and their values (`--param NAME=V1,V2,…`).
    pub params: Vec<Param>,
    /// Games per point (the same seeds at every point).
    pub games: u64,
    /// The sweep's seed: game `i` uses a seed derived from it at every point.
    pub seed: u64,
    /// The Editor's agent.
    pub editor: AgentSpec,
    /// Nixon's agent.
    pub nixon: AgentSpec,
    /// `--shard I/N`: play only that slice of each point's games.
    pub shard: Option<String>,
    /// Worker threads (results do not depend on them).
    pub threads: usize,
}

/// A sweep whose options are checked and whose base game is loaded,
/// ready to play.
pub struct PreparedSweep {
    base: DataSet,
    key: SweepKey,
    /// The slice of each point's games: first game, count.
    slice: (u64, u64),
    options: SweepOptions,
}

/// A finished (or interrupted) sweep.
pub struct SweepRun {
    /// The results, as `sweep --merge` reads them.
    pub result: SweepResult,
    /// The results as `sweep --json` prints them.
    pub json: serde_json::Value,
    /// Whether `stop` ended it early (Ctrl-C).
    pub interrupted: bool,
    /// Games finished over all points.
    pub finished: u64,
    /// Games asked for over all points (the whole sweep's, shard or not).
    pub asked: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Wall time.
    pub seconds: f64,
}

impl SweepOptions {
    /// Loads the base game and checks the options (one or two parameters,
    /// at least one game, the shard).
    pub fn prepare(&self) -> Result<PreparedSweep, RunError> {
        let base = self.game.base().map_err(RunError::Data)?;
        if self.params.is_empty() || self.params.len() > 2 {
            return Err(RunError::Message(format!(
                "give one or two --param NAME=V1,V2,… (got {})",
                self.params.len()
            )));
        }
        if self.games == 0 {
            return Err(RunError::Message("--games must be at least 1".into()));
        }
        let slice = match &self.shard {
            Some(s) => {
                let slice = parse_shard(s, self.games).map_err(RunError::Message)?;
                (slice.first_game, slice.games)
            }
            None => (0, self.games),
        };
        let key = SweepKey {
            params: self.params.clone(),
            games: self.games,
            seed: self.seed,
            editor: self.editor.to_string(),
            nixon: self.nixon.to_string(),
            variant: self.game.variant.as_ref().map(|p| p.display().to_string()),
            game: self.game.label(),
            base: base_point(
                &Setup {
                    base: &base,
                    variant: self.game.variant.as_deref(),
                },
                &self.params,
            ),
        };
        Ok(PreparedSweep {
            base,
            key,
            slice,
            options: self.clone(),
        })
    }
}

impl PreparedSweep {
    /// What identifies this sweep: what its results and its shards' carry.
    pub fn key(&self) -> &SweepKey {
        &self.key
    }

    /// Every point with its label and its files, in the order the sweep
    /// plays them: what a cluster ships to workers that share no disk.
    pub fn point_datasets(&self) -> Result<Vec<(Point, String, DataSet)>, String> {
        let setup = Setup {
            base: &self.base,
            variant: self.options.game.variant.as_deref(),
        };
        points(&self.key.params)
            .into_iter()
            .map(|pt| {
                let ds = point_dataset(&setup, &self.key.params, &pt)?;
                let name = label(&self.key.params, &pt);
                Ok((pt, name, ds))
            })
            .collect()
    }

    /// The games this run plays over all points (its shard's).
    pub fn total(&self) -> u64 {
        self.slice.1 * points(&self.key.params).len() as u64
    }

    /// Worker threads the run uses.
    pub fn threads(&self) -> usize {
        // The threads the runner starts: never more than a point's games.
        let games = usize::try_from(self.slice.1).unwrap_or(usize::MAX);
        self.options.threads.clamp(1, games.max(1))
    }

    /// Plays the sweep: `progress` (if any) hears the games finished over
    /// all points; once `stop` is set no game starts and the results are of
    /// the points played (the last with its first games), marked partial.
    pub fn run(
        &self,
        stop: &AtomicBool,
        progress: Option<&(dyn Fn(u64) + Sync)>,
    ) -> Result<SweepRun, RunError> {
        let o = &self.options;
        let setup = Setup {
            base: &self.base,
            variant: o.game.variant.as_deref(),
        };
        let threads = self.threads();
        let start = Instant::now();
        let result = run(
            &setup,
            &self.key,
            self.slice,
            (&o.editor, &o.nixon),
            threads,
            progress.unwrap_or(&|_| {}),
            stop,
        )
        .map_err(|e| match e {
            SweepError::Message(m) => RunError::Message(m),
            SweepError::Failure {
                point,
                params,
                failure,
            } => {
                // As `simulate` reports a game that failed (a card script's
                // failure exits 3 with the script's line), with the point
                // and the sweep of that point alone that plays it again.
                let word = |p: &Path| crate::deep_check::shell_word(&p.display().to_string());
                let mut again = String::from("watergate sweep");
                if let Some(d) = &o.game.data {
                    again.push_str(&format!(" --data {}", word(d)));
                }
                if let Some(v) = &o.game.variant {
                    again.push_str(&format!(" --variant {}", word(v)));
                }
                for p in &params {
                    again.push_str(&format!(" --param {}", crate::deep_check::shell_word(p)));
                }
                again.push_str(&format!(
                    " --games 1 --seed {} --editor {} --nixon {}",
                    crate::sim::single_game_seed(self.key.seed, failure.index),
                    o.editor,
                    o.nixon
                ));
                let context = format!(
                    "at {point}: in game {} of the sweep (seed {}, game seed {})\nreproduce: {again}",
                    failure.index, self.key.seed, failure.seed
                );
                let message = format!("{}\n  {context}", failure.error);
                RunError::Failure {
                    failure,
                    context,
                    message,
                }
            }
        })?;
        let seconds = start.elapsed().as_secs_f64();
        let interrupted = stop.load(Ordering::SeqCst);
        let finished: u64 = result.points.iter().map(|p| p.tally.games).sum();
        let asked = o.games * points(&o.params).len() as u64;
        let mut json = result.json();
        if interrupted {
            mark_partial(&mut json, finished, asked);
        }
        Ok(SweepRun {
            result,
            json,
            interrupted,
            finished,
            asked,
            threads,
            seconds,
        })
    }
}

/// `watergate sweep --json` as one call: loads the game, plays the same
/// games at every point and returns the JSON object the CLI prints for the
/// same options and seed (what `sweep --merge` reads). `progress` (if any)
/// hears the games finished over all points; once `stop` is set (Ctrl-C)
/// no game starts and the object is of the games played, marked `partial`.
pub fn sweep_json(
    o: &SweepOptions,
    stop: &AtomicBool,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Result<serde_json::Value, RunError> {
    Ok(o.prepare()?.run(stop, progress)?.json)
}

impl SweepResult {
    /// A sweep's results from its `sweep --json` form (what `--merge`
    /// reads); a sweep stopped by Ctrl-C is refused, as it covers only its
    /// first games.
    pub fn from_json(v: &serde_json::Value) -> Result<SweepResult, String> {
        if v["partial"] == true {
            return Err("a sweep stopped by Ctrl-C covers only its first games; run that shard again to merge it".into());
        }
        if v.get("run").is_some() {
            return Err(
                "a `simulate --json` result: combine simulate shards with `watergate merge FILE...`"
                    .into(),
            );
        }
        if v.get("sweep").is_none() {
            return Err(
                "not a `sweep --json` result (it has no `sweep`): `sweep --merge` takes what `sweep --shard I/N --json` prints"
                    .into(),
            );
        }
        serde_json::from_value(v["sweep"].clone())
            .map_err(|e| format!("not a `sweep --json` result: {e}"))
    }

    /// Adds a shard of the same sweep; refuses another sweep or games counted twice.
    pub fn merge(&mut self, o: &SweepResult) -> Result<(), String> {
        if self.key != o.key {
            return Err(format!(
                "another sweep: {:?} differs from {:?}",
                o.key, self.key
            ));
        }
        for &(f, n) in &o.slices {
            if self.slices.iter().any(|&(g, m)| f < g + m && g < f + n) {
                return Err(format!("games {f}..{} were already counted", f + n));
            }
        }
        self.slices.extend(o.slices.iter().copied());
        self.slices.sort();
        for (a, b) in self.points.iter_mut().zip(&o.points) {
            a.tally.merge(&b.tally);
        }
        Ok(())
    }

    /// Games counted per point.
    pub fn games_counted(&self) -> u64 {
        self.slices.iter().map(|s| s.1).sum()
    }

    pub fn editor_rate(p: &PointResult) -> Interval {
        wilson(p.tally.editor_wins, p.tally.games, Z95)
    }

    /// The table: one row per point.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let k = &self.key;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "sweep: {} games per point (seeds from {}, the same at every point), Editor {} vs Nixon {}{}",
            self.games_counted(),
            k.seed,
            k.editor,
            k.nixon,
            k.variant
                .as_ref()
                .map(|v| format!(", variant {v}"))
                .unwrap_or_default()
        );
        let w = self
            .points
            .iter()
            .map(|p| p.label.chars().count())
            .max()
            .unwrap_or(5)
            .max(5);
        let _ = writeln!(
            out,
            "{:w$}  {:>6}  {:>7}  {:>13}  {:>6}  {:>5}",
            "point", "games", "Editor", "95% CI", "rounds", "sd"
        );
        for p in &self.points {
            let i = Self::editor_rate(p);
            let _ = writeln!(
                out,
                "{:w$}  {:>6}  {:>6.1}%  {:>5.1}–{:>5.1}%  {:>6.2}  {:>5.2}{}",
                p.label,
                p.tally.games,
                100.0 * i.estimate,
                100.0 * i.low,
                100.0 * i.high,
                p.tally.mean_rounds(),
                p.tally.sd_rounds(),
                if self.is_base(p) { "  ← base" } else { "" }
            );
        }
        if self.points.iter().any(|p| self.is_base(p)) {
            let _ = writeln!(
                out,
                "← base: the values {}{} has",
                k.game,
                k.variant
                    .as_ref()
                    .map(|v| format!(" with variant {v}"))
                    .unwrap_or_default()
            );
        }
        out
    }

    /// Whether `p` is the point with the values of the game the sweep
    /// starts from (`SweepKey::base`).
    pub fn is_base(&self, p: &PointResult) -> bool {
        self.key.base.as_ref() == Some(&p.point)
    }

    /// One row per point: the parameter values, then the figures.
    pub fn csv(&self) -> String {
        let mut out = String::new();
        for p in &self.key.params {
            out.push_str(&csv_field(&p.name));
            out.push(',');
        }
        out.push_str("games,editor_wins,editor_win_rate,low,high,mean_rounds,sd_rounds,base\n");
        for p in &self.points {
            for (param, &i) in self.key.params.iter().zip(&p.point) {
                out.push_str(&csv_field(&param.values[i]));
                out.push(',');
            }
            let i = Self::editor_rate(p);
            out.push_str(&format!(
                "{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{}\n",
                p.tally.games,
                p.tally.editor_wins,
                i.estimate,
                i.low,
                i.high,
                p.tally.mean_rounds(),
                p.tally.sd_rounds(),
                self.is_base(p)
            ));
        }
        out
    }

    pub fn json(&self) -> serde_json::Value {
        let points: Vec<_> = self
            .points
            .iter()
            .map(|p| {
                let i = Self::editor_rate(p);
                serde_json::json!({
                    "label": p.label,
                    "values": self.key.params.iter().zip(&p.point).map(|(q, &k)| q.values[k].clone()).collect::<Vec<_>>(),
                    "games": p.tally.games,
                    "editor_win_rate": { "estimate": i.estimate, "low": i.low, "high": i.high },
                    "mean_rounds": p.tally.mean_rounds(),
                    "sd_rounds": p.tally.sd_rounds(),
                    "base": self.is_base(p),
                })
            })
            .collect();
        serde_json::json!({ "summary": points, "sweep": self })
    }

    /// An SVG: the Editor's win rate (95% interval) and the mean game length
    /// against the first parameter, one line per value of the second.
    pub fn chart(&self, path: &Path) -> Result<(), String> {
        let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
        let params = &self.key.params;
        let xs = params.first().map(|p| p.values.clone()).unwrap_or_default();
        let series: Vec<String> = match params.get(1) {
            Some(p) => p.values.iter().map(|v| format!("{}={v}", p.name)).collect(),
            None => vec![String::new()],
        };
        let root = SVGBackend::new(path, (960, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let (left, right) = root.split_horizontally(480);
        let n = xs.len() as f64;
        let x_name = params.first().map(|p| p.name.clone()).unwrap_or_default();
        let label_of = move |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < xs.len() {
                xs[i as usize].clone()
            } else {
                String::new()
            }
        };
        let max_rounds = self
            .points
            .iter()
            .map(|p| p.tally.mean_rounds() + p.tally.sd_rounds())
            .fold(1.0, f64::max)
            .ceil()
            + 1.0;
        let offset = |s: usize| {
            if series.len() > 1 {
                (s as f64 - (series.len() - 1) as f64 / 2.0) * 0.08
            } else {
                0.0
            }
        };
        for (panel, area) in [(0, &left), (1, &right)] {
            let (caption, top, y_desc) = if panel == 0 {
                (
                    "Editor's win rate (95% Wilson interval)",
                    1.0,
                    "share of games won by the Editor",
                )
            } else {
                ("Game length (mean ± sd)", max_rounds, "rounds")
            };
            let mut chart = ChartBuilder::on(area)
                .caption(caption, ("sans-serif", 17))
                .margin(12)
                .x_label_area_size(45)
                .y_label_area_size(50)
                .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..top)
                .map_err(|e| err(&e))?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(xs_count(n))
                .x_label_formatter(&label_of)
                .x_desc(x_name.clone())
                .y_desc(y_desc)
                .draw()
                .map_err(|e| err(&e))?;
            if panel == 0 {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(-0.5, 0.5), (n - 0.5, 0.5)],
                        BLACK.mix(0.4).stroke_width(1),
                    )))
                    .map_err(|e| err(&e))?;
            }
            for (s, name) in series.iter().enumerate() {
                let colour = Palette99::pick(s).to_rgba();
                let pts: Vec<(f64, f64, f64, f64)> = self
                    .points
                    .iter()
                    .filter(|p| p.point.get(1).copied().unwrap_or(0) == s)
                    .map(|p| {
                        let x = p.point.first().copied().unwrap_or(0) as f64 + offset(s);
                        if panel == 0 {
                            let i = Self::editor_rate(p);
                            (x, i.estimate, i.low, i.high)
                        } else {
                            let m = p.tally.mean_rounds();
                            let sd = p.tally.sd_rounds();
                            (x, m, (m - sd).max(0.0), m + sd)
                        }
                    })
                    .collect();
                let line = chart
                    .draw_series(LineSeries::new(
                        pts.iter().map(|p| (p.0, p.1)),
                        colour.stroke_width(2),
                    ))
                    .map_err(|e| err(&e))?;
                if !name.is_empty() && panel == 0 {
                    line.label(name.clone()).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 14, y)], colour.stroke_width(2))
                    });
                }
                // Each point: a dot and its interval as a bar with caps.
                for &(x, y, low, high) in &pts {
                    for seg in [
                        vec![(x, low), (x, high)],
                        vec![(x - 0.06, low), (x + 0.06, low)],
                        vec![(x - 0.06, high), (x + 0.06, high)],
                    ] {
                        chart
                            .draw_series(std::iter::once(PathElement::new(
                                seg,
                                colour.stroke_width(1),
                            )))
                            .map_err(|e| err(&e))?;
                    }
                    chart
                        .draw_series(std::iter::once(Circle::new((x, y), 4, colour.filled())))
                        .map_err(|e| err(&e))?;
                }
            }
            if panel == 0 && series.len() > 1 {
                chart
                    .configure_series_labels()
                    .border_style(BLACK)
                    .background_style(WHITE.mix(0.8))
                    .draw()
                    .map_err(|e| err(&e))?;
            }
        }
        root.present().map_err(|e| err(&e))?;
        Ok(())
    }
}

fn xs_count(n: f64) -> usize {
    (n as usize).clamp(1, 40)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_at_commas_outside_brackets_and_strings() {
        let text = r#""Liddy, G.","Gordon",[Blue,Green],"a \"b, c\"""#;
        let want = [
            r#""Liddy, G.""#,
            r#""Gordon""#,
            "[Blue,Green]",
            r#""a \"b, c\"""#,
        ];
        assert_eq!(split_values(text), want);
    }

    #[test]
    fn parameters_parse_into_targets() {
        let p = Param::parse("card.nixon.gordon_liddy.value=1,2,3").unwrap();
        assert_eq!(
            p.target,
            Target::Card {
                id: "nixon.gordon_liddy".into(),
                field: "value".into()
            }
        );
        assert_eq!(p.values, ["1", "2", "3"]);
        let p = Param::parse("card.deep_throat.colours=[Blue, Green],[Yellow]").unwrap();
        assert_eq!(p.values, ["[Blue, Green]", "[Yellow]"]);
        let p = Param::parse("tokens.blue/yellow.in_bag=2,3").unwrap();
        assert_eq!(
            p.target,
            Target::Tokens {
                colours: vec!["Blue".into(), "Yellow".into()],
                momentum_symbol: false,
                field: "in_bag".into()
            }
        );
        assert!(matches!(
            Param::parse("tokens.green*.in_reserve=0").unwrap().target,
            Target::Tokens {
                momentum_symbol: true,
                ..
            }
        ));
        assert_eq!(
            Param::parse("variant=a.ron,b.ron").unwrap().target,
            Target::Variant
        );
        for bad in [
            "value",
            "card.value=1",
            "tokens.red.in_bag=1",
            "tokens.blue.count=1",
            "game.x=",
            "board.x=1",
        ] {
            assert!(Param::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_value_given_twice_is_refused() {
        let e = Param::parse("card.nixon.gordon_liddy.value=1,2,1").unwrap_err();
        assert!(
            e.ends_with("the value 1 is given twice; a sweep plays each value once"),
            "{e}"
        );
        // Texts compare as written: a quoted comma is inside one value.
        assert!(Param::parse(r#"card.x.name="a, b","a","b""#).is_ok());
    }

    #[test]
    fn two_parameters_make_a_grid_first_slowest() {
        let a = Param::parse("game.evidence_per_round=3,4").unwrap();
        let b = Param::parse("card.x.value=1,2,3").unwrap();
        let pts = points(&[a.clone(), b.clone()]);
        assert_eq!(pts.len(), 6);
        assert_eq!(pts[1], vec![0, 1]);
        assert_eq!(
            label(&[a, b], &pts[4]),
            "game.evidence_per_round=4 card.x.value=2"
        );
    }

    #[test]
    fn a_point_is_a_variant_that_sets_each_value() {
        let embedded = DataSet::embedded();
        let setup = Setup {
            base: &embedded,
            variant: None,
        };
        let params = [
            Param::parse("card.gordon_liddy.value=1,4").unwrap(),
            Param::parse("game.evidence_per_round=4").unwrap(),
            Param::parse("tokens.blue.in_bag=7").unwrap(),
        ];
        let r = point_rules(&setup, &params, &vec![1, 0, 0]).unwrap();
        let liddy = r
            .cards
            .iter()
            .find(|c| c.id == "nixon.gordon_liddy")
            .unwrap();
        assert_eq!(liddy.value, 4);
        assert_eq!(r.numbers.evidence_per_round, 4);
        assert_eq!(r.evidence.iter().filter(|t| t.in_bag).count(), 31);
        // A field the card format does not have is reported at the sweep point.
        let bad = [Param::parse("card.gordon_liddy.valeu=2").unwrap()];
        let Err(e) = point_rules(&setup, &bad, &vec![0]) else {
            panic!("a misspelt field was accepted");
        };
        assert!(
            e.starts_with("sweep point card.gordon_liddy.valeu=2: unexpected field named `valeu`"),
            "{e}"
        );
        // No line and column of the variant text the point is written as.
        let bad = [Param::parse("card.nope.value=1").unwrap()];
        let Err(e) = point_rules(&setup, &bad, &vec![0]) else {
            panic!("an unknown card was accepted");
        };
        assert!(
            e.starts_with("sweep point card.nope.value=1: no card `nope`"),
            "{e}"
        );
    }
}
