//! `watergate check`: load and validate the data, every problem at once;
//! with `--deep`, also run the card scripts in many reachable states.

use super::{CliError, CliResult};
use crate::data::GameSource;
use crate::diag::Diagnostic;
use crate::game::model::Side;
use crate::game::rules::Rules;
use crate::lab::deep_check;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Random games `check --deep` plays unless `--games` says otherwise.
pub const DEEP_GAMES: u64 = 1000;

/// `watergate check`'s arguments.
#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub game: super::GameArgs,
    /// Also run the card scripts in many reachable states: games with every
    /// agent and every scenario under scenarios/ (and tests/scenarios/).
    #[arg(long)]
    pub deep: bool,
    /// With --deep: random games to play (agents that think play fewer) [default: 1000].
    #[arg(short = 'n', long, value_name = "N", requires = "deep", value_parser = super::values::count, allow_negative_numbers = true)]
    pub games: Option<u64>,
}

/// Loads and validates the game (with `--deep`, also runs its scripts in many states).
pub fn run(a: &CheckArgs) -> CliResult {
    let game = &a.game.source();
    let deep = a.deep.then(|| a.games.unwrap_or(DEEP_GAMES));
    let base = game.base().map_err(CliError::Data)?;
    let dir = game.data.as_deref();
    let (ds, variant) = match game.variant.as_deref() {
        None => (base.clone(), None),
        Some(v) => {
            let v = crate::data::variant::Variant::from_file(v).map_err(CliError::Data)?;
            (v.apply(&base).map_err(CliError::Data)?, Some(v))
        }
    };
    let rules = crate::data::load(&ds).map_err(CliError::Data)?;
    let mut out = super::output::stdout();
    if let Some(v) = &variant {
        writeln!(out, "variant `{}` applies cleanly", v.def.name)?;
    }
    // The board's shape against D5, choices that show what the rules hide:
    // advice, not errors (exit 0). A script's warning shows its line with a
    // caret under the call, as an error does. A board the variant writes
    // inline is the variant's text: its warnings point there.
    let warnings: Vec<Diagnostic> = match variant.as_ref().filter(|v| v.def.board.is_some()) {
        Some(v) => (crate::data::board_warnings(&rules).into_iter())
            .map(|(message, field)| v.at(&format!("board.{field}"), message))
            .chain(crate::data::script_warnings(&rules))
            .chain(crate::data::card_side_warnings(&ds))
            .collect(),
        None => crate::data::warnings(&rules, &ds),
    };
    let warnings: Vec<Diagnostic> = match &variant {
        Some(v) => v.warnings(&base).into_iter().chain(warnings).collect(),
        None => warnings,
    };
    print_warnings(&rules, &ds, &warnings);
    let dynamic = rules.scripts_reading_the_game();
    let count = |s: Side| rules.cards.iter().filter(|c| c.side == s).count();
    // The variant is named whatever it changes (one that changes numbers
    // or settings has already put it in the game's name).
    let name = match &variant {
        Some(v) if !rules.name.ends_with(&format!(" — variant: {}", v.def.name)) => {
            format!("{} — variant: {}", rules.name, v.def.name)
        }
        _ => rules.name.clone(),
    };
    let ok = format!(
        "ok: {} ({}): {} player cards ({} Nixon, {} Editor) and 2 momentum cards, {} board spaces, {} evidence tokens ({} in the bag), {} pictures, {} scripts ({} read the game)",
        name,
        match dir {
            Some(d) => d.display().to_string(),
            None => "built-in data".to_string(),
        },
        rules.cards.len(),
        count(Side::Nixon),
        count(Side::Editor),
        rules.board.spaces.len(),
        rules.evidence.len(),
        rules.evidence.iter().filter(|t| t.in_bag).count(),
        rules.pictures.len(),
        rules.scripts.units(),
        dynamic,
    );
    // With --deep, "ok" is said only once the scripts have run cleanly too.
    if let Some(games) = deep {
        deep_run(&rules, &ds, game, games, &warnings)?;
    }
    writeln!(out, "{ok}")?;
    Ok(())
}

/// Prints warnings on stderr, each with its line of the script or the
/// board file and a caret under the place, as an error is shown.
fn print_warnings(rules: &Rules, ds: &crate::data::DataSet, warnings: &[Diagnostic]) {
    // The board file's text, for its warnings' lines (a board written
    // inline in a variant is not this text: its warnings have no snippet).
    let board_path = ds.display_path(crate::data::validate::BOARD_FILE);
    let board_text = crate::data::text_of(ds, crate::data::validate::BOARD_FILE).ok();
    for w in warnings {
        super::output::errln!("warning: {w}");
        let script = (0..rules.scripts.units()).find(|&u| rules.scripts.display(u) == w.path);
        // A card file's warning (its `side`) shows the card file's line.
        let file_text = || {
            let rel = ds.files.keys().find(|rel| ds.display_path(rel) == w.path)?;
            crate::data::text_of(ds, rel).ok()
        };
        let card_text;
        let source = match script {
            Some(u) => Some(rules.scripts.text(u)),
            None if w.path == board_path => board_text.as_deref(),
            None => {
                card_text = file_text();
                card_text.as_deref()
            }
        };
        if let Some(snippet) = source.and_then(|text| w.snippet(text)) {
            for line in snippet.lines() {
                super::output::errln!("    {line}");
            }
        }
    }
}

/// The scenario folders the deep check plays: `scenarios/` and
/// `tests/scenarios/` of the current folder (the repository's, when run
/// from it), and `scenarios/` of the data folder.
fn scenario_dirs(dir: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("scenarios"), PathBuf::from("tests/scenarios")];
    if let Some(d) = dir {
        dirs.push(d.join("scenarios"));
    }
    dirs.retain(|d| d.is_dir());
    dirs.dedup_by(|a, b| a.canonicalize().ok() == b.canonicalize().ok());
    dirs
}

/// The scenario files the deep check plays: those of [`scenario_dirs`],
/// and, when there is no `scenarios/` folder here (an installed binary run
/// outside the checkout), the shipped scenarios built into the binary,
/// named by their relative paths (`scenarios/puzzles/…`), which every
/// command finds from any folder.
fn scenario_files(dir: Option<&Path>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if !Path::new(crate::data::source::SHIPPED_SCENARIOS).is_dir() {
        files = crate::data::source::shipped_scenario_paths();
        files.retain(|f| f.extension().is_some_and(|x| x == "ron"));
    }
    files.extend(deep_check::scenario_files(&scenario_dirs(dir)));
    files
}

/// `shown`: the warnings printed before the deep check, which may find
/// more (a script that reads the game, run in states where it builds
/// options that show what the rules hide).
fn deep_run(
    rules: &Rules,
    ds: &crate::data::DataSet,
    flags: &GameSource,
    games: u64,
    shown: &[Diagnostic],
) -> CliResult {
    let files = scenario_files(flags.data.as_deref());
    let total: u64 = deep_check::pairings(games)
        .iter()
        .map(|(_, _, n)| n)
        .sum::<u64>()
        + files.len() as u64;
    let bar = super::progress::Progress::new(total, "games and scenarios");
    let threads = crate::lab::runner::cores();
    let report = deep_check::deep_check(rules, ds, flags, games, &files, threads, &|n| bar.set(n));
    bar.finish();
    let report = report?;
    let mut out = super::output::stdout();
    writeln!(
        out,
        "deep check: {} games ({}), {} scenario files played and {} options tried from their positions",
        report.games.iter().map(|(_, n)| n).sum::<u64>(),
        report
            .games
            .iter()
            .map(|(who, n)| format!("{n} {who}"))
            .collect::<Vec<_>>()
            .join(", "),
        report.scenarios,
        report.options_tried,
    )?;
    if !report.skipped.is_empty() {
        writeln!(
            out,
            "  {} scenario files not played with this game (they are about another): {}",
            report.skipped.len(),
            report
                .skipped
                .iter()
                .map(|(f, why)| format!("{f}: {why}"))
                .collect::<Vec<_>>()
                .join("; ")
        )?;
    }
    let unplayed: Vec<&str> = report
        .action_plays
        .iter()
        .filter(|(_, n)| **n == 0)
        .map(|(id, _)| id.as_str())
        .collect();
    writeln!(
        out,
        "  card actions played {} times in the games ({} of the cards' scripts read the game){}",
        report.action_plays.values().sum::<u64>(),
        report.dynamic,
        if unplayed.is_empty() {
            "; every card's action was played".to_string()
        } else {
            format!("; never played for its action: {}", unplayed.join(", "))
        }
    )?;
    let found: Vec<Diagnostic> = crate::data::script_warnings(rules)
        .filter(|w| !shown.contains(w))
        .collect();
    if !found.is_empty() {
        writeln!(
            out,
            "  {} warning{} found when the scripts ran (on stderr)",
            found.len(),
            if found.len() == 1 { "" } else { "s" }
        )?;
        print_warnings(rules, ds, &found);
    }
    let scripts = report
        .findings
        .iter()
        .filter(|f| f.script().is_some())
        .count();
    let others = report.findings.len() - scripts;
    if report.findings.is_empty() {
        writeln!(out, "  no script failed")?;
        return Ok(());
    }
    // Other failures (a game stuck, say) can differ in every game: the
    // first few say enough.
    const SHOWN: usize = 10;
    let mut last = None;
    let mut shown_others = 0;
    for f in &report.findings {
        if f.script().is_none() {
            shown_others += 1;
            if shown_others > SHOWN {
                continue;
            }
        }
        match f.script() {
            Some(e) => {
                if let Some((e, c)) = last.replace((e.clone(), f.context())) {
                    super::report_script(&e, &c);
                }
            }
            None => super::output::errln!(
                "error: {}
  {}",
                f.error,
                f.context().replace('\n', "\n  ")
            ),
        }
    }
    if others > SHOWN {
        super::output::errln!("… and {} more failures not shown", others - SHOWN);
    }
    let summary = format!(
        "{scripts} card script failure{} and {others} other failure{} found by the deep check",
        if scripts == 1 { "" } else { "s" },
        if others == 1 { "" } else { "s" },
    );
    match last {
        Some((error, context)) => Err(CliError::Script {
            error: Box::new(error),
            context: format!("{context}\n{summary}"),
        }),
        None => Err(CliError::Failed(summary)),
    }
}
