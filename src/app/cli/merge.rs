//! `watergate merge FILES…`: the JSON results of shards of one run
//! (`simulate --shard I/N --json`) combined exactly, by the lab's
//! `report::merge_reports`.

use super::output::errln;
use super::{CliError, CliResult};
use crate::lab::report::{merge_reports, Report};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `watergate merge`'s arguments.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The JSON results of the shards (`simulate --shard I/N --json`), one file each.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub outputs: super::batch::Outputs,
}

/// `watergate merge FILES…`: combine the JSON results of shards exactly.
/// The merged report reads only the results files: merge takes no game.
pub fn run(a: &MergeArgs) -> CliResult {
    let (files, json_out) = (&a.files, a.outputs.json);
    let (csv, chart) = (a.outputs.csv.as_deref(), a.outputs.chart.as_deref());
    if files.is_empty() {
        return Err(CliError::Message(
            "merge needs at least one JSON result file".into(),
        ));
    }
    a.outputs.check()?;
    // `merge full.json --csv full.json` would write the table over a shard.
    let inputs: Vec<_> = files
        .iter()
        .map(|f| ("a result file to merge", f.as_path()))
        .collect();
    super::paths::distinct(&inputs, &a.outputs.files())?;
    let mut reports = Vec::new();
    for f in files {
        let text = crate::data::user_file::read_user_string(f, "a `simulate --json` result")
            .map_err(CliError::Message)?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            CliError::Message(format!(
                "{}: not a `simulate --json` result: {e}",
                f.display()
            ))
        })?;
        let report = Report::from_json(&v)
            .map_err(|e| CliError::Message(format!("{}: {e}", f.display())))?;
        reports.push((f.display().to_string(), report));
    }
    let m = merge_reports(reports).map_err(CliError::Message)?;
    let covered = m.covered();
    if covered != m.run.games {
        errln!(
            "warning: the shards cover {covered} of the run's {} games; the statistics are for those",
            m.run.games
        );
    }
    super::simulate::outputs(&m, csv, chart)?;
    let mut out = super::output::stdout();
    if json_out {
        writeln!(out, "{}", m.to_json())?;
    } else {
        write!(out, "{}", m.text())?;
    }
    Ok(())
}
