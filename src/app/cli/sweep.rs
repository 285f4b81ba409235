//! `watergate sweep`: the same games at every value of one or two
//! parameters (a card field, a game number or setting, a token count, or a
//! list of variant files or data roots), as a table, JSON, CSV and an SVG
//! chart; shards of a sweep are combined with `--merge`. The run and its
//! JSON are the lab's (`lab::sweep::SweepOptions`); this module reads the
//! options and prints.

use super::{CliError, CliResult};
use crate::lab::sweep::{Param, SweepOptions, SweepResult, SweepRun};
use crate::players::agent::AgentSpec;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// A parameter and its values, NAME=V1,V2,… (give one or two):
    /// card.ID.FIELD (card.gordon_liddy.value=1,2,3,4), game.FIELD,
    /// settings.FIELD, tokens.KIND.in_bag|in_reserve (KIND: blue, blue*,
    /// blue/yellow), variant=A.ron,B.ron or data=DIR1,DIR2. A list value is
    /// written in brackets: card.gordon_liddy.colours=[Blue],[Blue,Green];
    /// a text value in RON's double quotes (quote the whole argument for the
    /// shell): 'card.gordon_liddy.script="scripts/nixon/gambit.rhai","scripts/nixon/howard_hunt.rhai"'.
    #[arg(long = "param", value_name = "NAME=V1,V2,…", required_unless_present = "merge", value_parser = Param::parse)]
    pub params: Vec<Param>,
    /// Games per point (the same seeds at every point).
    #[arg(short = 'n', long, value_name = "N", default_value_t = 200, value_parser = super::values::count, allow_negative_numbers = true)]
    pub games: u64,
    /// Seed of the sweep: game i uses a seed derived from it at every point.
    #[arg(short, long, value_name = "SEED", default_value_t = 1, value_parser = super::values::seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// The Editor's agent: random, heuristic, ismcts:N or ismcts:Nms (heuristic by default, where simulate's is random).
    #[arg(long, value_name = "AGENT", default_value = "heuristic", value_parser = super::values::one_agent)]
    pub editor: AgentSpec,
    /// Nixon's agent: random, heuristic, ismcts:N or ismcts:Nms (heuristic by default, where simulate's is random).
    #[arg(long, value_name = "AGENT", default_value = "heuristic", value_parser = super::values::one_agent)]
    pub nixon: AgentSpec,
    /// Play only slice I of N of each point's games (1-based); combine with --merge [default: all].
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Play nothing: combine these `sweep --json` results (shards of one sweep) [default: play].
    /// The files say what was swept and how, so the options of a run are refused with it.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["params", "shard", "games", "seed", "editor", "nixon"])]
    pub merge: Vec<PathBuf>,
    #[command(flatten)]
    pub threads: super::batch::Threads,
    #[command(flatten)]
    pub outputs: super::batch::Outputs,
    /// The game every point starts from (`--variant` applies at every
    /// point, before the point's values).
    #[command(flatten)]
    pub game: super::GameArgs,
}

fn read_result(f: &Path) -> Result<SweepResult, CliError> {
    let text = crate::data::user_file::read_user_string(f, "a `sweep --json` result")
        .map_err(CliError::Message)?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        CliError::Message(format!("{}: not a `sweep --json` result: {e}", f.display()))
    })?;
    SweepResult::from_json(&v).map_err(|e| CliError::Message(format!("{}: {e}", f.display())))
}

pub fn run(a: &SweepArgs) -> CliResult {
    a.outputs.check()?;
    super::paths::distinct(&inputs(a), &a.outputs.files())?;
    super::paths::outside_games(&[("the game swept", &a.game.source())], &a.outputs.files())?;
    // Ctrl-C: the points played so far (the last one with its first games).
    let (result, json, interrupted) = if !a.merge.is_empty() {
        let mut merged: Option<SweepResult> = None;
        for f in &a.merge {
            let r = read_result(f)?;
            match &mut merged {
                None => merged = Some(r),
                Some(m) => m
                    .merge(&r)
                    .map_err(|e| CliError::Message(format!("{}: {e}", f.display())))?,
            }
        }
        let m = merged.expect("at least one file");
        if m.games_counted() != m.key.games {
            super::output::errln!(
                "warning: the shards cover {} of the sweep's {} games per point; the figures are for those",
                m.games_counted(),
                m.key.games
            );
        }
        let json = m.json();
        (m, json, None)
    } else {
        let run = play(a)?;
        let interrupted = run.interrupted.then_some((run.finished, run.asked));
        (run.result, run.json, interrupted)
    };
    if let Some(path) = &a.outputs.csv {
        std::fs::write(path, result.csv())
            .map_err(|e| CliError::Message(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = &a.outputs.chart {
        result.chart(path).map_err(CliError::Message)?;
    }
    let mut out = super::output::stdout();
    if a.outputs.json {
        writeln!(out, "{json}")?;
    } else {
        if let Some((finished, asked)) = interrupted {
            writeln!(
                out,
                "PARTIAL: interrupted ({cause}) after {finished} of {asked} games; the figures below are for those games.",
                cause = super::interrupt::cause()
            )?;
        }
        write!(out, "{}", result.text())?;
    }
    if let Some((finished, asked)) = interrupted {
        out.flush()?;
        return Err(CliError::Interrupted(format!(
            "the report covers the {finished} games finished of {asked}"
        )));
    }
    Ok(())
}

/// The files the sweep reads, which none of its outputs may replace: the
/// results it merges, the `--variant` and the variant files of a
/// `variant=…` parameter.
fn inputs(a: &SweepArgs) -> Vec<(&'static str, &Path)> {
    let merged = a
        .merge
        .iter()
        .map(|f| ("a sweep result to merge", f.as_path()));
    let variant = a.game.variant.as_deref().map(|v| ("the --variant file", v));
    let swept = a
        .params
        .iter()
        .filter(|p| p.target == crate::lab::sweep::Target::Variant)
        .flat_map(|p| p.values.iter())
        .map(|v| ("a variant file of --param", Path::new(v.as_str())));
    merged.chain(variant).chain(swept).collect()
}

fn play(a: &SweepArgs) -> Result<SweepRun, CliError> {
    let sweep = SweepOptions {
        game: a.game.source(),
        params: a.params.clone(),
        games: a.games,
        seed: a.seed,
        editor: a.editor.clone(),
        nixon: a.nixon.clone(),
        shard: a.shard.clone(),
        threads: a.threads.count(),
    }
    .prepare()?;
    super::note_timed_agents([&a.editor, &a.nixon]);
    let total = sweep.total();
    let bar = super::progress::Progress::new(total, "games");
    let stop = super::interrupt::watch();
    let run = sweep.run(stop, Some(&|n| bar.set(n)))?;
    bar.finish();
    if !a.outputs.json {
        let threads = run.threads;
        super::output::errln!(
            "{total} games in {:.1} s on {threads} thread{}",
            run.seconds,
            if threads == 1 { "" } else { "s" }
        );
    }
    Ok(run)
}
