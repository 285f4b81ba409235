//! `watergate ladder`: a round robin among agents on both sides, rated with
//! a Bradley–Terry model (Elo scale, 95% intervals) and the Editor's side
//! advantage.

use super::{CliError, CliResult};
use crate::players::agent::AgentSpec;
use clap::Args;
use std::io::Write;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct LadderArgs {
    /// The agents, comma-separated; the first is the anchor (rated 0).
    #[arg(
        long,
        value_name = "AGENT,AGENT,…",
        value_delimiter = ',',
        default_value = "random,heuristic,ismcts:30,ismcts:100",
        value_parser = AgentSpec::parse
    )]
    pub agents: Vec<AgentSpec>,
    /// Games per pairing (each agent as Editor against each as Nixon).
    #[arg(short = 'n', long, value_name = "N", default_value_t = 20, value_parser = super::values::count)]
    pub games: u64,
    /// Seed of the run: every pairing plays the same game seeds.
    #[arg(short, long, value_name = "SEED", default_value_t = 1, value_parser = super::values::seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// Worker threads; results do not depend on it [default: every core].
    #[arg(short = 'j', long, value_name = "N", value_parser = super::values::threads)]
    pub threads: Option<usize>,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
}

pub fn run(a: &LadderArgs) -> CliResult {
    if a.agents.len() < 2 {
        return Err(CliError::Message(
            "--agents: give at least two agents".into(),
        ));
    }
    if a.games == 0 {
        return Err(CliError::Message("--games must be at least 1".into()));
    }
    let rules = a.game.rules()?;
    let threads = a.threads.unwrap_or_else(crate::lab::runner::cores).max(1);
    let total = a.games * (a.agents.len() * a.agents.len()) as u64;
    let bar = super::progress::Progress::new(total, "games");
    let stop = super::interrupt::watch();
    let start = Instant::now();
    let pairings = crate::lab::ladder::play(
        &rules,
        &a.agents,
        a.games,
        a.seed,
        threads,
        &|n| {
            bar.set(n);
        },
        stop,
    )
    .map_err(|e| match e.script() {
        Some(error) => CliError::Script {
            error: error.clone(),
            context: format!(
                "in game {} (game seed {}) of a ladder pairing",
                e.index, e.seed
            ),
        },
        None => CliError::Message(e.to_string()),
    })?;
    bar.finish();
    // Ctrl-C: the pairings played so far (the last with its first games).
    let interrupted = super::interrupt::requested();
    let finished: u64 = pairings.iter().map(|p| p.games).sum();
    if interrupted && pairings.is_empty() {
        return Err(CliError::Interrupted(
            "no game had finished: nothing to rate".into(),
        ));
    }
    let secs = start.elapsed().as_secs_f64();
    let ladder = crate::lab::ladder::Ladder::new(&a.agents, a.games, a.seed, pairings);
    let mut out = super::output::stdout();
    if a.json {
        let mut v = serde_json::json!(ladder);
        if interrupted {
            v["partial"] = serde_json::json!(true);
            v["games_finished"] = serde_json::json!(finished);
            v["games_asked"] = serde_json::json!(total);
        }
        v["seconds"] = serde_json::json!(secs);
        v["threads"] = serde_json::json!(threads);
        v["game"] = serde_json::json!(a.game.source().label());
        writeln!(out, "{v}")?;
    } else {
        if interrupted {
            writeln!(
                out,
                "PARTIAL: interrupted (Ctrl-C) after {finished} of {total} games; the ratings below are from those games."
            )?;
        }
        write!(out, "{}", ladder.text())?;
        writeln!(
            out,
            "  {total} games of {} in {secs:.0} s on {threads} thread(s)",
            a.game.source().label()
        )?;
    }
    if interrupted {
        out.flush()?;
        return Err(CliError::Interrupted(format!(
            "the ratings cover the {finished} games finished of {total}"
        )));
    }
    Ok(())
}
