//! `watergate ladder`: a round robin among agents on both sides, rated with
//! a Bradley–Terry model (Elo scale, 95% intervals) and the Editor's side
//! advantage. The run and its JSON are the lab's
//! (`lab::ladder::LadderOptions`); this module reads the options and prints.

use super::{CliError, CliResult};
use crate::lab::ladder::LadderOptions;
use crate::players::agent::AgentSpec;
use clap::Args;
use std::io::Write;

#[derive(Args, Debug)]
pub struct LadderArgs {
    /// The agents, comma-separated; the first is the anchor (rated 0). An
    /// agent with a time budget (ismcts:Nms) is not repeatable under --seed.
    #[arg(
        long,
        value_name = "AGENT,AGENT,…",
        value_delimiter = ',',
        default_value = "random,heuristic,ismcts:30,ismcts:100",
        value_parser = AgentSpec::parse
    )]
    pub agents: Vec<AgentSpec>,
    /// Games per pairing (each agent as Editor against each as Nixon).
    #[arg(short = 'n', long, value_name = "N", default_value_t = 20, value_parser = super::values::count, allow_negative_numbers = true)]
    pub games: u64,
    /// Seed of the run: every pairing plays the same game seeds (an agent
    /// with a time budget, ismcts:Nms, still plays differently on every run).
    #[arg(short, long, value_name = "SEED", default_value_t = 1, value_parser = super::values::seed, allow_hyphen_values = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: super::batch::Threads,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
}

pub fn run(a: &LadderArgs) -> CliResult {
    let ladder = LadderOptions {
        game: a.game.source(),
        agents: a.agents.clone(),
        games: a.games,
        seed: a.seed,
        threads: a.threads.count(),
    }
    .prepare()?;
    super::note_timed_agents(&a.agents);
    let total = ladder.total();
    let bar = super::progress::Progress::new(total, "games");
    let stop = super::interrupt::watch();
    let run = ladder.run(stop, Some(&|n| bar.set(n)))?;
    bar.finish();
    // Ctrl-C: the pairings played so far (the last with its first games).
    let (finished, secs, threads) = (run.finished, run.seconds, run.threads);
    let mut out = super::output::stdout();
    if a.json {
        writeln!(out, "{}", run.json)?;
    } else {
        if run.interrupted {
            writeln!(
                out,
                "PARTIAL: interrupted ({cause}) after {finished} of {total} games; the ratings below are from those games.",
                cause = super::interrupt::cause()
            )?;
        }
        write!(out, "{}", run.ladder.text())?;
        writeln!(
            out,
            "  {} of {} in {secs:.1} s on {}",
            crate::game::wording::count(total as usize, "game"),
            run.label,
            crate::game::wording::count(threads, "thread")
        )?;
    }
    if run.interrupted {
        out.flush()?;
        return Err(CliError::Interrupted(format!(
            "the ratings cover the {finished} games finished of {total}"
        )));
    }
    Ok(())
}
