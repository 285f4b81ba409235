//! A strength ladder: every agent plays every agent (itself included) on
//! both sides, and a Bradley–Terry model with a side term turns the results
//! into ratings on the Elo scale, with 95% intervals, and the Editor's side
//! advantage. Model: P(the Editor wins) = σ(r_editor − r_nixon + h), where σ
//! is the logistic function; ratings are relative to the first agent (0).

use crate::data::GameSource;
use crate::game::rules::Rules;
use crate::players::agent::AgentSpec;
use crate::report::{mark_partial, RunError};
use crate::sim::{simulate_compare_until, SimConfig, SimFailure};
use crate::stats::Z95;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Elo points per unit of the logistic model (400 / ln 10).
pub const ELO: f64 = 173.717_792_761_245_7;
/// The sd of a weak Gaussian prior on every parameter (in model units, about
/// 870 Elo): it keeps ratings finite when an agent wins every game.
pub const PRIOR_SD: f64 = 5.0;

/// The games of one agent as Editor against one as Nixon.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    pub editor: usize,
    pub nixon: usize,
    pub games: u64,
    pub editor_wins: u64,
    pub mean_rounds: f64,
}

/// A rating on the Elo scale with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub agents: Vec<String>,
    pub games_per_pairing: u64,
    pub seed: u64,
    pub pairings: Vec<Pairing>,
    /// By agent; the first is the anchor (0, no interval).
    pub ratings: Vec<Rating>,
    /// The Editor's advantage h, on the Elo scale.
    pub editor_advantage: Rating,
}

/// Plays every ordered pair of agents (Editor, Nixon), `games` games each on
/// the same seeds. `progress` gets the number of games finished. Once
/// `stop` is set (Ctrl-C) no game starts: the pairings so far are returned,
/// the last with its first games.
pub fn play(
    r: &Rules,
    agents: &[AgentSpec],
    games: u64,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Vec<Pairing>, crate::sim::SimFailure> {
    let mut out = Vec::new();
    for (e, editor) in agents.iter().enumerate() {
        for (n, nixon) in agents.iter().enumerate() {
            if stop.load(std::sync::atomic::Ordering::SeqCst) {
                return Ok(out);
            }
            let cfg = SimConfig {
                games,
                seed,
                first_game: 0,
                editor: editor.clone(),
                nixon: nixon.clone(),
                threads,
            };
            let done = out.len() as u64 * games;
            let t = simulate_compare_until(r, None, &cfg, &|k| progress(done + k), stop)?.tally;
            if t.games == 0 {
                return Ok(out);
            }
            out.push(Pairing {
                editor: e,
                nixon: n,
                games: t.games,
                editor_wins: t.editor_wins,
                mean_rounds: t.mean_rounds(),
            });
        }
    }
    Ok(out)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Solves `a x = b` (a small symmetric positive definite system) by Gaussian
/// elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, p);
        b.swap(c, p);
        let (top, rest) = a.split_at_mut(c + 1);
        let pivot = &top[c];
        for (k, row) in rest.iter_mut().enumerate() {
            let f = row[c] / pivot[c];
            for (x, p) in row[c..].iter_mut().zip(&pivot[c..]) {
                *x -= f * p;
            }
            b[c + 1 + k] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| a[i][j] * x[j]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    x
}

/// Fits the ratings of `agents` agents and the side advantage to the
/// pairings (maximum a posteriori, Newton's method); intervals from the
/// curvature at the optimum (the inverse of the observed information).
pub fn fit(agents: usize, pairings: &[Pairing]) -> (Vec<Rating>, Rating) {
    // Parameters: r_1..r_{k-1}, then h (r_0 = 0).
    let k = agents.max(1);
    let dim = k;
    let h = k - 1;
    let x_of = |p: &Pairing| {
        let mut x = vec![0.0; dim];
        if p.editor > 0 {
            x[p.editor - 1] += 1.0;
        }
        if p.nixon > 0 {
            x[p.nixon - 1] -= 1.0;
        }
        x[h] = 1.0;
        x
    };
    let mut theta = vec![0.0; dim];
    let info = |theta: &[f64]| {
        let mut g: Vec<f64> = theta.iter().map(|t| -t / (PRIOR_SD * PRIOR_SD)).collect();
        let mut m = vec![vec![0.0; dim]; dim];
        for (i, row) in m.iter_mut().enumerate() {
            row[i] = 1.0 / (PRIOR_SD * PRIOR_SD);
        }
        for p in pairings {
            let x = x_of(p);
            let eta: f64 = x.iter().zip(theta).map(|(a, b)| a * b).sum();
            let q = sigmoid(eta);
            let n = p.games as f64;
            for i in 0..dim {
                g[i] += (p.editor_wins as f64 - n * q) * x[i];
                for j in 0..dim {
                    m[i][j] += n * q * (1.0 - q) * x[i] * x[j];
                }
            }
        }
        (g, m)
    };
    for _ in 0..100 {
        let (g, m) = info(&theta);
        let step = solve(m, g);
        let size = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        for (t, s) in theta.iter_mut().zip(&step) {
            *t += s;
        }
        if size < 1e-10 {
            break;
        }
    }
    let (_, m) = info(&theta);
    let sd = |i: usize| {
        let mut e = vec![0.0; dim];
        e[i] = 1.0;
        solve(m.clone(), e)[i].max(0.0).sqrt()
    };
    let rating = |i: usize| {
        let (t, s) = (theta[i], sd(i));
        Rating {
            elo: ELO * t,
            low: ELO * (t - Z95 * s),
            high: ELO * (t + Z95 * s),
        }
    };
    let mut ratings = vec![Rating {
        elo: 0.0,
        low: 0.0,
        high: 0.0,
    }];
    ratings.extend((0..k - 1).map(rating));
    (ratings, rating(h))
}

impl Ladder {
    pub fn new(agents: &[AgentSpec], games: u64, seed: u64, pairings: Vec<Pairing>) -> Ladder {
        let (ratings, editor_advantage) = fit(agents.len(), &pairings);
        Ladder {
            agents: agents.iter().map(|a| a.to_string()).collect(),
            games_per_pairing: games,
            seed,
            pairings,
            ratings,
            editor_advantage,
        }
    }

    /// The Editor's win rate (and games) of agent `e` as Editor against `n` as Nixon.
    pub fn rate(&self, e: usize, n: usize) -> Option<f64> {
        self.pairings
            .iter()
            .find(|p| p.editor == e && p.nixon == n)
            .map(|p| p.editor_wins as f64 / p.games.max(1) as f64)
    }

    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let w = self
            .agents
            .iter()
            .map(|a| a.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = writeln!(
            out,
            "ladder: {} agents, {} games per pairing (each as Editor against each as Nixon, itself included), seed {}",
            self.agents.len(),
            self.games_per_pairing,
            self.seed
        );
        let _ = writeln!(
            out,
            "{:w$}  {:>6}  {:>15}  {:>9}  {:>9}",
            "agent", "Elo", "95% CI", "as Editor", "as Nixon"
        );
        for (i, a) in self.agents.iter().enumerate() {
            let score = |editor: bool| {
                let (won, games) = self
                    .pairings
                    .iter()
                    .filter(|p| if editor { p.editor == i } else { p.nixon == i })
                    .fold((0, 0), |(w, g), p| {
                        let won = if editor {
                            p.editor_wins
                        } else {
                            p.games - p.editor_wins
                        };
                        (w + won, g + p.games)
                    });
                100.0 * won as f64 / games.max(1) as f64
            };
            let r = self.ratings[i];
            let ci = if i == 0 {
                "(anchor)".to_string()
            } else {
                format!("{:.0} to {:.0}", r.low, r.high)
            };
            let _ = writeln!(
                out,
                "{a:w$}  {:>6.0}  {ci:>15}  {:>8.1}%  {:>8.1}%",
                r.elo,
                score(true),
                score(false)
            );
        }
        let h = self.editor_advantage;
        let _ = writeln!(
            out,
            "Editor's side advantage: {:+.0} Elo (95% CI {:+.0} to {:+.0}): between equal agents the Editor wins {:.1}%",
            h.elo,
            h.low,
            h.high,
            100.0 * sigmoid(h.elo / ELO)
        );
        let _ = writeln!(
            out,
            "Editor's win rate by pairing (rows: Editor, columns: Nixon):"
        );
        let _ = write!(out, "{:w$}", "");
        for a in &self.agents {
            let _ = write!(out, "  {a:>w$}");
        }
        out.push('\n');
        for (e, a) in self.agents.iter().enumerate() {
            let _ = write!(out, "{a:w$}");
            for n in 0..self.agents.len() {
                match self.rate(e, n) {
                    Some(x) => {
                        let _ = write!(out, "  {:>w$}", format!("{:.0}%", 100.0 * x));
                    }
                    None => {
                        let _ = write!(out, "  {:>w$}", "—");
                    }
                }
            }
            out.push('\n');
        }
        out
    }
}

/// A ladder as `watergate ladder` is asked for it. Every front end (the
/// CLI, Python) fills this in and gets the same ratings for the same seed.
#[derive(Clone, Debug)]
pub struct LadderOptions {
    /// The game: `--data` and `--variant`.
    pub game: GameSource,
    /// The agents (at least two); the first is the anchor (rated 0).
    pub agents: Vec<AgentSpec>,
    /// Games per pairing (each agent as Editor against each as Nixon).
    pub games: u64,
    /// The run's seed: every pairing plays the same game seeds.
    pub seed: u64,
    /// Worker threads (results do not depend on them).
    pub threads: usize,
}

/// A ladder whose options are checked and whose game is loaded, ready to
/// play.
pub struct PreparedLadder {
    rules: Rules,
    label: String,
    options: LadderOptions,
}

/// A finished (or interrupted) ladder.
pub struct LadderRun {
    /// The ratings and the pairings they come from.
    pub ladder: Ladder,
    /// The ladder as `ladder --json` prints it.
    pub json: serde_json::Value,
    /// Whether `stop` ended it early (Ctrl-C).
    pub interrupted: bool,
    /// Games finished.
    pub finished: u64,
    /// Games asked for (every pairing's).
    pub total: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Wall time.
    pub seconds: f64,
    /// The game played, in words (`GameSource::label`).
    pub label: String,
}

impl LadderOptions {
    /// Checks the options (two agents or more, at least one game) and loads
    /// the game.
    pub fn prepare(&self) -> Result<PreparedLadder, RunError> {
        if self.agents.len() < 2 {
            return Err(RunError::Message(
                "--agents: give at least two agents".into(),
            ));
        }
        // The same agent twice would be rated twice, as two players who
        // happen to play alike: a table that reads as two results.
        for (i, a) in self.agents.iter().enumerate() {
            if let Some(j) = self.agents[..i].iter().position(|b| b == a) {
                return Err(RunError::Message(format!(
                    "--agents: `{a}` is given twice (agents {} and {}); a ladder rates each \
                     agent once (to rate an agent against itself, every agent already plays \
                     itself on the other side)",
                    j + 1,
                    i + 1
                )));
            }
        }
        if self.games == 0 {
            return Err(RunError::Message("--games must be at least 1".into()));
        }
        let rules = self.game.rules().map_err(RunError::Data)?;
        Ok(PreparedLadder {
            rules,
            label: self.game.label(),
            options: self.clone(),
        })
    }
}

impl PreparedLadder {
    /// The games of every pairing together.
    pub fn total(&self) -> u64 {
        let n = self.options.agents.len() as u64;
        self.options.games * n * n
    }

    /// Plays every pairing and rates the agents: `progress` (if any) hears
    /// the games finished; once `stop` is set no game starts and the ratings
    /// are of the pairings played (the last with its first games), marked
    /// partial; stopped before any game finished, there is nothing to rate.
    pub fn run(
        &self,
        stop: &AtomicBool,
        progress: Option<&(dyn Fn(u64) + Sync)>,
    ) -> Result<LadderRun, RunError> {
        let o = &self.options;
        // The threads the runner starts: never more than a pairing's games.
        let threads = crate::runner::workers(o.threads, o.games);
        let total = self.total();
        let start = Instant::now();
        let pairings = play(
            &self.rules,
            &o.agents,
            o.games,
            o.seed,
            threads,
            progress.unwrap_or(&|_| {}),
            stop,
        )
        .map_err(|e| match e {
            SimFailure::Game(failure) => RunError::Failure {
                context: format!(
                    "in game {} (game seed {}) of a ladder pairing",
                    failure.index, failure.seed
                ),
                message: failure.to_string(),
                failure,
            },
            SimFailure::Threads(t) => RunError::Message(t.to_string()),
        })?;
        let interrupted = stop.load(Ordering::SeqCst);
        let finished: u64 = pairings.iter().map(|p| p.games).sum();
        if interrupted && pairings.is_empty() {
            return Err(RunError::Interrupted(
                "no game had finished: nothing to rate".into(),
            ));
        }
        let seconds = start.elapsed().as_secs_f64();
        let ladder = Ladder::new(&o.agents, o.games, o.seed, pairings);
        let mut json = serde_json::json!(ladder);
        if interrupted {
            mark_partial(&mut json, finished, total);
        }
        json["seconds"] = serde_json::json!(seconds);
        json["threads"] = serde_json::json!(threads);
        json["game"] = serde_json::json!(self.label);
        Ok(LadderRun {
            ladder,
            json,
            interrupted,
            finished,
            total,
            threads,
            seconds,
            label: self.label.clone(),
        })
    }
}

/// `watergate ladder --json` as one call: loads the game, plays every
/// pairing, rates the agents and returns the JSON object the CLI prints for
/// the same options and seed (its timing fields aside). `progress` (if any)
/// hears the games finished; once `stop` is set (Ctrl-C) no game starts and
/// the object is of the games played, marked `partial`.
pub fn ladder_json(
    o: &LadderOptions,
    stop: &AtomicBool,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Result<serde_json::Value, RunError> {
    Ok(o.prepare()?.run(stop, progress)?.json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(editor: usize, nixon: usize, games: u64, editor_wins: u64) -> Pairing {
        Pairing {
            editor,
            nixon,
            games,
            editor_wins,
            mean_rounds: 0.0,
        }
    }

    #[test]
    fn a_stronger_agent_rates_higher_and_the_side_term_is_found() {
        // Agent 1 beats agent 0 three times in four on either side; self-play
        // is even: no side advantage, a gap of ln 3 (191 Elo) less a little
        // shrinkage from the prior.
        let p = vec![
            pairing(0, 0, 400, 200),
            pairing(1, 1, 400, 200),
            pairing(1, 0, 400, 300),
            pairing(0, 1, 400, 100),
        ];
        let (r, h) = fit(2, &p);
        assert_eq!(r[0].elo, 0.0);
        assert!((r[1].elo - 190.8).abs() < 2.0, "{r:?}");
        assert!(r[1].low > 100.0 && r[1].high < 290.0, "{r:?}");
        assert!(h.elo.abs() < 1.0 && h.low < 0.0 && h.high > 0.0, "{h:?}");
        // The same agents with the Editor winning more on every pairing.
        let p = vec![
            pairing(0, 0, 400, 300),
            pairing(1, 1, 400, 300),
            pairing(1, 0, 400, 360),
            pairing(0, 1, 400, 200),
        ];
        let (_, h) = fit(2, &p);
        assert!(h.low > 100.0, "{h:?}");
    }

    #[test]
    fn an_agent_named_twice_is_refused_before_the_game_loads() {
        let options = LadderOptions {
            // No such folder: the refusal comes before any load.
            game: GameSource {
                data: Some("no-such-data-folder".into()),
                variant: None,
            },
            agents: ["random", "heuristic", "random"]
                .iter()
                .map(|a| AgentSpec::parse(a).unwrap())
                .collect(),
            games: 2,
            seed: 1,
            threads: 1,
        };
        let Err(RunError::Message(m)) = options.prepare() else {
            panic!("a ladder with `random` twice was prepared")
        };
        assert!(
            m.starts_with("--agents: `random` is given twice (agents 1 and 3)"),
            "{m}"
        );
    }

    #[test]
    fn a_clean_sweep_stays_finite() {
        let p = vec![pairing(1, 0, 50, 50), pairing(0, 1, 50, 0)];
        let (r, _) = fit(2, &p);
        assert!(r[1].elo.is_finite() && r[1].elo > 300.0, "{r:?}");
    }
}
