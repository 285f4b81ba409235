//! `watergate simulate`: many games between two agents, optionally compared
//! with another game (`--against`: the shipped game, a data folder or a
//! variant) on the same seeds, with honest statistics; and `watergate
//! merge` for shards of a larger sweep.

use super::output::errln;
use super::{CliError, CliResult};
use crate::data::GameSource;
use crate::game::model::{Side, WinCause};
use crate::game::rules::Rules;
use crate::lab::deep_check::shell_word;
use crate::lab::sim::{
    simulate_compare_until, single_game_seed, GameFailure, SimConfig, SimResult, Tally,
};
use crate::lab::stats::{newcombe, wilson, Interval, Z95};
use crate::players::agent::AgentSpec;
use clap::Args;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Number of games (with --precision: the most to play) [default: 1000; with --precision: 1000000].
    #[arg(short = 'n', long, value_name = "N", value_parser = super::values::count)]
    pub games: Option<u64>,
    /// Seed of the whole run: game i uses a seed derived from it.
    #[arg(short, long, value_name = "SEED", default_value_t = 1, value_parser = super::values::seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// The Editor's agent: random, heuristic, ismcts:N (iterations) or ismcts:Nms; search options after it: ismcts:N:reuse, ismcts:N:settle, ismcts:N:playout=M (judge each playout after M decisions, 10 by default) or ismcts:N:playout=full (play it to the end), ismcts:N:threads=K.
    #[arg(long, value_name = "AGENT", default_value = "random", value_parser = AgentSpec::parse)]
    pub editor: AgentSpec,
    /// Nixon's agent: random, heuristic, ismcts:N or ismcts:Nms.
    #[arg(long, value_name = "AGENT", default_value = "random", value_parser = AgentSpec::parse)]
    pub nixon: AgentSpec,
    /// Also play the same games (same seeds, same agents) with another game
    /// and compare: `shipped` (the built-in game), `base` (this game without
    /// --variant), a data folder, or a variant file (applied to this game's data)
    /// [default: no comparison].
    #[arg(
        long,
        visible_alias = "baseline",
        value_name = "shipped|base|DIR|VARIANT.ron"
    )]
    pub against: Option<String>,
    /// Play until the 95% interval (of the difference, with --against; of the
    /// Editor's win rate otherwise) is at most this wide on each side, like 0.01
    /// [default: play exactly --games].
    #[arg(long, value_name = "HALF_WIDTH")]
    pub precision: Option<f64>,
    /// Run only slice I of N of the games (1-based), for a sweep spread over machines [default: all].
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Worker threads; results do not depend on it [default: every core].
    #[arg(short = 'j', long, value_name = "N", value_parser = super::values::threads)]
    pub threads: Option<usize>,
    /// Print the full results as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also write the results as a CSV table.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also draw win rates with their intervals and the game-length histogram (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// Report the process's peak memory (Linux) at the end (`peak_memory_kib` in JSON).
    #[arg(long)]
    pub report_peak_memory: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
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

/// A slice of a run's games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slice {
    pub first_game: u64,
    pub games: u64,
}

/// `--shard I/N` of a run of `games`: the games of slice I (simulate and sweep).
pub(super) fn parse_shard(s: &str, games: u64) -> Result<Slice, CliError> {
    let bad = || {
        CliError::Message(format!(
            "--shard {s}: expected I/N with 1 <= I <= N, like 3/8"
        ))
    };
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
    pub fn load(data: Option<&Path>, variant: Option<&Path>) -> Result<PlayedGame, CliError> {
        let source = GameSource {
            data: data.map(Path::to_path_buf),
            variant: variant.map(Path::to_path_buf),
        };
        let rules = source.rules().map_err(CliError::Data)?;
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
    pub fn against(spec: &str, data: Option<&Path>) -> Result<PlayedGame, CliError> {
        match spec {
            "shipped" => PlayedGame::load(None, None),
            "base" => PlayedGame::load(data, None),
            p => {
                let path = Path::new(p);
                if path.is_dir() {
                    PlayedGame::load(Some(path), None)
                } else if path.is_file() {
                    PlayedGame::load(data, Some(path))
                } else {
                    Err(CliError::Message(format!(
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

/// A game that failed, as the command line reports it: a failing script is
/// blamed (exit 3) with the game and the command that replays it; anything
/// else is the engine's failure.
pub fn failure_error(
    f: &GameFailure,
    game: &PlayedGame,
    run_seed: u64,
    editor: &AgentSpec,
    nixon: &AgentSpec,
) -> CliError {
    let again = game.command(single_game_seed(run_seed, f.index), editor, nixon);
    let mut context = format!(
        "in game {} of `{}` (seed {run_seed}, game seed {})",
        f.index, game.label, f.seed
    );
    if let Some(who) = &f.lookahead {
        context.push_str(&format!(", while {who} looked ahead"));
    }
    context.push_str(&format!("\nreproduce: {again}"));
    let timed =
        |a: &AgentSpec| matches!(a.budget(), Some(crate::players::agent::Budget::Millis(_)));
    if timed(editor) || timed(nixon) {
        context.push_str(
            "\n(an agent with a time budget decides differently on every run: use ismcts:N iterations to replay exactly)",
        );
    }
    match f.script() {
        Some(e) => CliError::Script {
            error: e.clone(),
            context,
        },
        None => CliError::Message(format!("{}\n  {}", f.error, context.replace('\n', "\n  "))),
    }
}

pub fn run(a: &SimulateArgs) -> CliResult {
    super::paths::report_outputs(a.csv.as_deref(), a.chart.as_deref())?;
    let data = a.game.data.as_deref();
    let game = PlayedGame::load(data, a.game.variant.as_deref())?;
    let against = match a.against.as_deref() {
        None => None,
        Some(spec) => {
            let other = PlayedGame::against(spec, data)?;
            if other.rules.fingerprint == game.rules.fingerprint {
                return Err(CliError::Message(if spec == "base" && data.is_some() {
                    format!(
                        "--against base: `base` is this game without --variant, so {} would be compared with itself; to compare it with the shipped game, use --against shipped",
                        game.label
                    )
                } else if other.label == game.label {
                    format!(
                        "--against {spec}: that is the game being played ({}), so the comparison would be with itself; give --data DIR or --variant FILE for the edited game",
                        game.label
                    )
                } else {
                    format!(
                        "--against {spec}: `{}` and `{}` are the same game (same data), so there is nothing to compare",
                        game.label, other.label
                    )
                }));
            }
            Some(other)
        }
    };
    if let Some(p) = a.precision {
        if !(p > 0.0 && p < 0.5) {
            return Err(CliError::Message(format!(
                "--precision {p}: expected a half-width between 0 and 0.5, like 0.01"
            )));
        }
    }
    let games = a.games.unwrap_or(if a.precision.is_some() {
        1_000_000
    } else {
        1000
    });
    if games == 0 {
        return Err(CliError::Message("--games must be at least 1".into()));
    }
    if a.shard.is_some() && a.precision.is_some() {
        return Err(CliError::Message(
            "--shard and --precision do not go together: a shard plays a fixed slice".into(),
        ));
    }
    let slice = match &a.shard {
        Some(s) => parse_shard(s, games)?,
        None => Slice {
            first_game: 0,
            games,
        },
    };
    let threads = a.threads.unwrap_or_else(crate::lab::runner::cores).max(1);
    let rules = &game.rules;
    let key = RunKey {
        seed: a.seed,
        games,
        editor: a.editor.to_string(),
        nixon: a.nixon.to_string(),
        label: game.label.clone(),
        against: against.as_ref().map(|g| g.label.clone()),
        data_fingerprint: format!("{:016x}", rules.fingerprint),
        against_fingerprint: against
            .as_ref()
            .map(|g| format!("{:016x}", g.rules.fingerprint)),
    };
    // With --precision the total is the most games; the run may stop well short.
    let bar = if a.precision.is_some() {
        super::progress::Progress::up_to(slice.games, "games")
    } else {
        super::progress::Progress::new(slice.games, "games")
    };
    let stop = super::interrupt::watch();
    let start = Instant::now();
    // Batches of consecutive games: the stopping rule looks only between
    // batches, so results do not depend on the thread count.
    let batch = if a.precision.is_some() {
        500.min(slice.games)
    } else {
        slice.games
    };
    let mut total = SimResult {
        against: against.as_ref().map(|_| Tally::default()),
        paired: against.as_ref().map(|_| Default::default()),
        ..Default::default()
    };
    let mut played = 0;
    while played < slice.games && !super::interrupt::requested() {
        let n = batch.min(slice.games - played);
        let cfg = SimConfig {
            games: n,
            seed: a.seed,
            first_game: slice.first_game + played,
            editor: a.editor.clone(),
            nixon: a.nixon.clone(),
            threads,
        };
        let offset = played;
        let part = simulate_compare_until(
            rules,
            against.as_ref().map(|g| &g.rules),
            &cfg,
            &|k| {
                if k % 16 == 0 {
                    bar.set(offset + k);
                }
            },
            stop,
        );
        let part = match part {
            Ok(p) => p,
            Err(f) => {
                bar.finish();
                let which = match (&against, f.against) {
                    (Some(g), true) => g,
                    _ => &game,
                };
                return Err(failure_error(&f, which, a.seed, &a.editor, &a.nixon));
            }
        };
        total.merge(&part);
        // Fewer than `n` when Ctrl-C stopped the batch: the first games of it.
        played += part.tally.games;
        if let Some(p) = a.precision {
            if half_width(&total) <= p {
                break;
            }
        }
    }
    bar.finish();
    let interrupted = super::interrupt::requested();
    let secs = start.elapsed().as_secs_f64();
    let slice_played = Slice {
        first_game: slice.first_game,
        games: played,
    };
    let mut report = Report {
        run: key,
        slices: vec![slice_played],
        result: total,
    };
    // A shard keeps its run's size (its key for `merge`); a run cut short by
    // Ctrl-C or by --precision is a run of the games it played.
    report.run.games = if a.shard.is_some() || (a.precision.is_none() && !interrupted) {
        games
    } else {
        played
    };
    if a.precision.is_some() {
        report.slices = vec![Slice {
            first_game: 0,
            games: played,
        }];
    }
    let mut v = report.to_json(rules);
    v["threads"] = json!(threads);
    v["seconds"] = json!(secs);
    v["games_per_second"] = json!(played as f64 / secs.max(1e-9));
    if let Some(s) = &a.shard {
        v["shard"] = json!(s);
    }
    if interrupted {
        v["partial"] = json!(true);
        v["games_finished"] = json!(played);
        v["games_asked"] = json!(slice.games);
    }
    if a.report_peak_memory {
        v["peak_memory_kib"] = json!(crate::lab::bench::peak_rss_kib());
    }
    report.outputs(rules, a.csv.as_deref(), a.chart.as_deref())?;
    let mut out = super::output::stdout();
    if a.json {
        writeln!(out, "{v}")?;
    } else {
        if interrupted {
            writeln!(
                out,
                "PARTIAL: interrupted (Ctrl-C) after {played} of {} games; the figures below are for those games.",
                slice.games
            )?;
        }
        write!(out, "{}", report.text(rules))?;
        writeln!(
            out,
            "  {:.0} games/s on {} thread{} ({:.2} s)",
            played as f64 / secs.max(1e-9),
            threads,
            if threads == 1 { "" } else { "s" },
            secs
        )?;
    }
    if interrupted {
        out.flush()?;
        return Err(CliError::Interrupted(format!(
            "the report covers the {played} games finished of {}",
            slice.games
        )));
    }
    Ok(())
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
                    "win_rate_when_action_used": interval_json(wilson(c.action_wins, c.action_games, Z95)),
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
    this: Option<&'a crate::lab::sim::CardTally>,
    other: Option<&'a crate::lab::sim::CardTally>,
}

impl CardDiff<'_> {
    fn rate(c: Option<&crate::lab::sim::CardTally>) -> Option<Interval> {
        c.filter(|c| c.action_games > 0)
            .map(|c| wilson(c.action_wins, c.action_games, Z95))
    }

    /// This run's rate minus the other's (Newcombe's interval: the games in
    /// which a card's action was used differ between the runs).
    fn difference(&self) -> Option<Interval> {
        Some(newcombe(Self::rate(self.this)?, Self::rate(self.other)?))
    }
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
    pub fn to_json(&self, _r: &Rules) -> serde_json::Value {
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
        }
        v
    }

    pub fn text(&self, _r: &Rules) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let t = &self.result.tally;
        let k = &self.run;
        let _ = match &k.against {
            None => writeln!(
                out,
                "{} games, seed {}: Editor ({}) vs Nixon ({}) — {}",
                t.games, k.seed, k.editor, k.nixon, k.label
            ),
            Some(o) => writeln!(
                out,
                "{} games, seed {}: Editor ({}) vs Nixon ({}) — {} against {}, on the same seeds",
                t.games, k.seed, k.editor, k.nixon, k.label, o
            ),
        };
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
                100.0 * d.estimate,
                100.0 * d.low,
                100.0 * d.high,
                if significant(&d) { " — significant" } else { " — not significant at 95%" }
            );
            let _ = writeln!(
                out,
                "difference in mean game length: {:+.2} rounds",
                t.mean_rounds() - b.mean_rounds()
            );
            let _ = writeln!(
                out,
                "cards: win rate of its side when its action was used (action plays per game), {} against {}; * significant at 95%:",
                k.label, o
            );
            let cell = |c: Option<&crate::lab::sim::CardTally>, games: u64| match c {
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
            for d in card_diffs(t, b) {
                let diff = match d.difference() {
                    None => "—".to_string(),
                    Some(i) => format!(
                        "{:+5.1} ({:+.1} to {:+.1}){}",
                        100.0 * i.estimate,
                        100.0 * i.low,
                        100.0 * i.high,
                        if significant(&i) { " *" } else { "" }
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

    /// CSV and chart files, when asked for.
    pub fn outputs(&self, _r: &Rules, csv: Option<&Path>, chart: Option<&Path>) -> CliResult {
        if let Some(path) = csv {
            std::fs::write(path, self.csv())
                .map_err(|e| CliError::Message(format!("cannot write {}: {e}", path.display())))?;
        }
        if let Some(path) = chart {
            crate::lab::chart::draw(
                path,
                &self.result,
                &self.run.label,
                self.run.against.as_deref().unwrap_or(""),
            )
            .map_err(CliError::Message)?;
        }
        Ok(())
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

/// `watergate merge FILES…`: combine the JSON results of shards exactly.
pub fn merge(
    files: &[PathBuf],
    json_out: bool,
    csv: Option<&Path>,
    chart: Option<&Path>,
    r: &Rules,
) -> CliResult {
    if files.is_empty() {
        return Err(CliError::Message(
            "merge needs at least one JSON result file".into(),
        ));
    }
    super::paths::report_outputs(csv, chart)?;
    let mut merged: Option<Report> = None;
    for f in files {
        let text = crate::data::user_file::read_user_string(f, "a `simulate --json` result")
            .map_err(CliError::Message)?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            CliError::Message(format!(
                "{}: not a `simulate --json` result: {e}",
                f.display()
            ))
        })?;
        let report = Report {
            run: serde_json::from_value(v["run"].clone()).map_err(|e| {
                CliError::Message(format!("{}: no run description: {e}", f.display()))
            })?,
            slices: serde_json::from_value(v["slices"].clone())
                .map_err(|e| CliError::Message(format!("{}: no slices: {e}", f.display())))?,
            result: serde_json::from_value(v["raw"].clone())
                .map_err(|e| CliError::Message(format!("{}: no raw sums: {e}", f.display())))?,
        };
        match &mut merged {
            None => merged = Some(report),
            Some(m) => {
                if m.run != report.run {
                    return Err(CliError::Message(format!(
                        "{} is from another run: {:?} differs from {:?}",
                        f.display(),
                        report.run,
                        m.run
                    )));
                }
                for s in &report.slices {
                    if m.slices.iter().any(|t| {
                        s.first_game < t.first_game + t.games
                            && t.first_game < s.first_game + s.games
                    }) {
                        return Err(CliError::Message(format!(
                            "{}: games {}..{} were already counted",
                            f.display(),
                            s.first_game,
                            s.first_game + s.games
                        )));
                    }
                }
                m.slices.extend(report.slices.iter().cloned());
                m.result.merge(&report.result);
            }
        }
    }
    let mut m = merged.expect("at least one file");
    m.slices.sort_by_key(|s| s.first_game);
    let covered: u64 = m.slices.iter().map(|s| s.games).sum();
    if covered != m.run.games {
        errln!(
            "warning: the shards cover {covered} of the run's {} games; the statistics are for those",
            m.run.games
        );
    }
    m.outputs(r, csv, chart)?;
    let mut out = super::output::stdout();
    if json_out {
        writeln!(out, "{}", m.to_json(r))?;
    } else {
        write!(out, "{}", m.text(r))?;
    }
    Ok(())
}
