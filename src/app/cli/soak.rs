//! `watergate soak`: many random games, every invariant checked after
//! every step (SOAK.md).

use super::{interrupt, output, progress, values, CliError, CliResult};
use clap::Args;
use std::io::Write;

/// `watergate soak`'s arguments.
#[derive(Args, Debug)]
pub struct SoakArgs {
    /// Number of random games.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 10_000, value_parser = values::count, allow_negative_numbers = true)]
    pub games: u64,
    /// Seed of the run: game i uses a seed derived from it.
    #[arg(short, long, value_name = "SEED", default_value_t = 1, value_parser = values::seed, allow_hyphen_values = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: super::batch::Threads,
    /// Round-trip the state through a scenario file every K steps (1: every step).
    #[arg(long, value_name = "K", default_value_t = 20, value_parser = values::count, allow_negative_numbers = true)]
    pub save_every: u64,
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// Plays the games, checking every invariant, and reports; a failure's
/// position is saved in `soak-failure.ron` (numbered when that is taken).
pub fn run(a: &SoakArgs) -> CliResult {
    let r = a.game.rules()?;
    let (games, seed, save_every) = (a.games, a.seed, a.save_every);
    let threads = a.threads.count();
    let cfg = crate::lab::soak::SoakConfig {
        games,
        seed,
        threads,
        save_every,
    };
    let bar = progress::Progress::new(games, "games");
    let stop = interrupt::watch();
    let mut out = output::stdout();
    let start = std::time::Instant::now();
    let rep = crate::lab::soak::soak_until(
        &r,
        &cfg,
        &|n| {
            if n % 32 == 0 {
                bar.set(n);
            }
        },
        stop,
    );
    bar.finish();
    let rep = rep?;
    let secs = start.elapsed().as_secs_f64();
    let interrupted = interrupt::requested();
    if interrupted {
        writeln!(
            out,
            "PARTIAL: interrupted ({cause}) after {} of {games} games; the checks below are for those games.",
            rep.games,
            cause = interrupt::cause()
        )?;
    }
    writeln!(
        out,
        "soak: {} games, {} steps checked in {:.0} s on {} (seed {seed})",
        rep.games,
        rep.steps,
        secs,
        crate::game::wording::count(crate::lab::runner::workers(threads, games), "thread")
    )?;
    writeln!(out, "  game: {}", a.game.source().label())?;
    writeln!(
        out,
        "  conservation checked after every step and after each of {} legal options applied",
        rep.options_applied
    )?;
    writeln!(
        out,
        "  {} illegal choices refused with the game unchanged",
        rep.illegal_refused
    )?;
    writeln!(
        out,
        "  {} save-and-load round trips through a scenario file (every {save_every} step(s))",
        rep.round_trips
    )?;
    writeln!(
        out,
        "  {} games replayed from their logs to the same final state",
        rep.replays
    )?;
    match rep.failure {
        None if interrupted => {
            writeln!(out, "  no failure in the games finished")?;
            out.flush()?;
            Err(CliError::Interrupted(format!(
                "the report covers the {} games finished of {games}",
                rep.games
            )))
        }
        None => {
            writeln!(out, "  no failure")?;
            Ok(())
        }
        Some((what, position)) => {
            let saved = match save_failure(a, &position) {
                Ok(file) => {
                    let file = file.display().to_string();
                    let word = crate::formats::shell_word(&file);
                    format!("is saved in {file} (`watergate scenario {word}` loads it, on the same game)")
                }
                Err(e) => format!("could not be saved: {}", message(e)),
            };
            if let Some(error) = rep.script {
                // A card script failed: the script is to blame, not the engine.
                return Err(CliError::Script {
                    error: Box::new(error),
                    context: format!("{what}\nthe position before that choice {saved}"),
                });
            }
            Err(CliError::Failed(format!(
                "FAILURE: {what}\nthe position {saved}"
            )))
        }
    }
}

/// Writes a failure's position into the current folder as a scenario file
/// that reproduces it: it names the `--data` folder and the `--variant` the
/// run played (a position alone would load on the shipped game, where it
/// may not even be a position), under a name no earlier failure has
/// (`soak-failure-2.ron`…), so that a second run keeps the first's file.
fn save_failure(a: &SoakArgs, position: &str) -> Result<std::path::PathBuf, CliError> {
    use crate::formats::scenario::{save, Scenario};
    let here = std::path::Path::new("");
    let text = match Scenario::from_text("soak-failure.ron", position, here.into()) {
        Ok(scn) => {
            let mut def = scn.def;
            // Paths relative to the current folder, where the file goes
            // (any name there: only its folder counts).
            let beside = std::path::Path::new("soak-failure.ron");
            for note in save::RulesOrigin::of(&a.game.source(), None).stamp(&mut def, Some(beside))
            {
                output::errln!("note: {note}");
            }
            save::to_text(&def)
        }
        // The lab writes the position with the same scenario writer, so
        // this is not expected; the position is still worth keeping.
        Err(_) => {
            output::errln!(
                "note: the failure's position names no data or variant: load it with `--data`/`--variant` as given to soak"
            );
            position.to_string()
        }
    };
    super::paths::write_new(here, "soak-failure", ".ron", &text)
}

/// A `CliError`'s words, for a sentence about a side issue.
fn message(e: CliError) -> String {
    match e {
        CliError::Message(m) | CliError::Failed(m) => m,
        other => format!("{other:?}"),
    }
}
