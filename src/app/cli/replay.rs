//! `watergate replay LOG`: a logged game choice by choice, narrated for an
//! omniscient reader, then the final position; checks that the replay ends
//! as the log records. With `--step` it shows the position after each
//! choice and waits: Enter for the next choice, `q` to stop.

use super::output::errln;
use super::{CliError, CliResult};
use crate::diag::Diagnostics;
use crate::formats::log::{self, LoadedLog};
use crate::formats::narrate::narrate;
use crate::formats::render::{self, Style};
use crate::game::engine::notation::describe_choice;
use crate::game::engine::Actor;
use crate::game::observation::Sight;
use crate::game::rules::Rules;
use clap::Args;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

/// `watergate replay`'s arguments.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The game log (RON) written by `watergate play`.
    #[arg(value_name = "FILE")]
    pub log: PathBuf,
    /// Wait for Enter after each choice.
    #[arg(long)]
    pub step: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
}

/// Replays the log, narrated, and checks it ends as recorded.
pub fn run(a: &ReplayArgs, color: super::ColorChoice) -> CliResult {
    // The game first: a broken `--data` is reported as every command
    // reports it, whatever the log.
    let given = a.game.rules()?;
    let (file, step) = (a.log.as_path(), a.step);
    let loaded = log::read(file).map_err(CliError::Data)?;
    // The log names the rules it was played with (data, variant, a
    // scenario's edits): the replay plays with them, but for what
    // `--data`/`--variant` give instead.
    let source = a.game.source();
    let r = &if loaded.has_own_rules() {
        loaded.rules_for(&source).map_err(CliError::Data)?
    } else {
        given
    };
    if let Some(w) = loaded.fingerprint_warning(r) {
        // On other rules a log may still replay (a changed description, a
        // card no choice used); when it does not, the one thing to say is
        // that the rules differ, not each token and choice that no longer
        // fits. A card script that fails is still the script's to answer.
        if loaded.replay(r).is_err() && script_failure(r, &loaded).is_none() {
            if let Some(d) = loaded.other_rules(r, &source) {
                return Err(CliError::Data(Diagnostics(vec![d])));
            }
        }
        errln!("{w}");
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    let st = Style {
        colour: color.enabled(),
        viewer: None,
    };
    let echo = !io::IsTerminal::is_terminal(&stdin);
    match show(r, &loaded, step, echo, &st, stdin.lock(), stdout.lock())? {
        Replayed::Ended | Replayed::Quit => Ok(()),
        // A log that does not replay, or not to the end it records, is a
        // bad input file (exit 2), like any file that does not say what it
        // claims.
        Replayed::BadLog(d) | Replayed::Mismatch(d) => Err(match script_failure(r, &loaded) {
            Some((index, error)) => CliError::Script {
                error: Box::new(error),
                context: format!(
                    "while {} replayed choice {} `{}`",
                    loaded.display,
                    index + 1,
                    loaded.log.choices[index]
                ),
            },
            None => CliError::Data(d),
        }),
    }
}

/// The choice whose card script failed, if that is why the replay stopped
/// (the script is to blame then, not the log).
fn script_failure(
    r: &Rules,
    loaded: &LoadedLog,
) -> Option<(usize, crate::game::engine::ScriptError)> {
    let mut s = loaded.start(r, &mut Vec::new()).ok()?;
    let mut options = Vec::new();
    for (i, text) in loaded.log.choices.iter().enumerate() {
        s.legal(r, &mut options)?;
        let c = crate::game::engine::notation::parse_choice(r, &s, text, &options).ok()?;
        match s.apply(r, c) {
            Ok(()) => {}
            Err(crate::game::engine::PlayError::Script(e)) => return Some((i, *e)),
            Err(_) => return None,
        }
    }
    None
}

/// How a replay ended.
pub enum Replayed {
    /// At the end of the log, as it records.
    Ended,
    /// The reader typed `q` during `--step`.
    Quit,
    /// A choice of the log could not be read or applied.
    BadLog(Diagnostics),
    /// The replay ends otherwise than the log records.
    Mismatch(Diagnostics),
}

/// Prints the replay of `loaded`; with `step`, shows the position after each
/// choice and waits for a line of `input` (`q` stops; the end of input lets
/// it run to the end). With `echo` (input that is no terminal, as `play`
/// has it), each line read is written after its prompt, so that the
/// transcript reads as a session at the terminal would.
#[allow(clippy::too_many_arguments)]
pub fn show<R: BufRead, W: Write>(
    r: &Rules,
    loaded: &LoadedLog,
    step: bool,
    echo: bool,
    st: &Style,
    mut input: R,
    mut out: W,
) -> io::Result<Replayed> {
    let l = &loaded.log;
    let start = if l.start.position.is_some() {
        format!("from a position ({})", l.start.name)
    } else {
        format!("a new game, seed {}", l.start.seed)
    };
    let outcome = match l.outcome {
        Some(o) => format!("{} won ({})", o.winner, o.cause.describe()),
        None => "unfinished".to_string(),
    };
    writeln!(
        out,
        "{}: {start}; Editor: {}, Nixon: {}; {} choices; {outcome}.",
        loaded.display,
        l.players.editor,
        l.players.nixon,
        l.choices.len()
    )?;
    let mut events = Vec::new();
    let mut s = match loaded.start(r, &mut events) {
        Ok(s) => s,
        Err(d) => return Ok(Replayed::BadLog(d)),
    };
    // The reader sees everything: a replay keeps no secret.
    let mut sight = Sight::everything();
    for line in narrate(r, None, &sight.see_all(&events)) {
        writeln!(out, "      • {line}")?;
    }
    let mut waiting = step;
    for i in 0..l.choices.len() {
        let actor = s.to_move(r);
        let (who, side) = match actor {
            Some(Actor::Player(side)) => (side.name().to_string(), side),
            _ => ("chance".to_string(), crate::game::model::Side::Nixon),
        };
        events.clear();
        // Described in the position it is taken in; a choice that cannot be
        // taken leaves the position as it was, to be shown.
        let taken = loaded.choice(r, &s, i).and_then(|choice| {
            let described = describe_choice(r, &s, side, choice);
            loaded.take(r, &mut s, i, choice, &mut events)?;
            Ok(described)
        });
        let described = match taken {
            Ok(d) => d,
            Err(d) => {
                writeln!(out, "\nThe replay stops before choice {}:", i + 1)?;
                write!(out, "{}", render::position(r, &s, st))?;
                return Ok(Replayed::BadLog(Diagnostics(vec![d])));
            }
        };
        writeln!(out, "[{}] {who}: {} — {described}", i + 1, l.choices[i])?;
        for line in narrate(r, None, &sight.see_all(&events)) {
            writeln!(out, "      • {line}")?;
        }
        if waiting && i + 1 < l.choices.len() {
            writeln!(out)?;
            write!(out, "{}", render::position(r, &s, st))?;
            write!(
                out,
                "(after choice {} of {}; Enter: next choice, q: quit) ",
                i + 1,
                l.choices.len()
            )?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                // No more input: run to the end.
                waiting = false;
                writeln!(out)?;
            } else if echo {
                writeln!(out, "{}", line.trim_end_matches(['\n', '\r']))?;
            }
            if waiting && matches!(line.trim().to_ascii_lowercase().as_str(), "q" | "quit") {
                writeln!(
                    out,
                    "Stopped after choice {} of {}.",
                    i + 1,
                    l.choices.len()
                )?;
                return Ok(Replayed::Quit);
            }
        }
    }
    writeln!(out, "\nFinal position")?;
    write!(out, "{}", render::position(r, &s, st))?;
    if let Err(d) = loaded.check_outcome(&s) {
        return Ok(Replayed::Mismatch(Diagnostics(vec![d])));
    }
    writeln!(
        out,
        "\nThe replay ends as the log records: {}.",
        match s.outcome() {
            Some(o) => format!("{} wins ({})", o.winner, o.cause.describe()),
            None => "the game unfinished".to_string(),
        }
    )?;
    Ok(Replayed::Ended)
}
