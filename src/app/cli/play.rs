//! `watergate play`: a game at the terminal, against an agent or hotseat,
//! from a new deal or a scenario's position; every game writes a log.

use super::{CliError, CliResult};
use crate::app::terminal::{self, Game, Humans, Settings};
use crate::formats::scenario::save::RulesOrigin;
use crate::formats::scenario::Scenario;
use crate::players::agent::AgentSpec;
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The side you play: editor, nixon, or both (hotseat: two players at one terminal).
    #[arg(long = "as", value_name = "SIDE", default_value = "editor", value_parser = Humans::parse)]
    pub side: Humans,
    /// The agent that plays the other side: random, heuristic, ismcts:N or ismcts:Nms, with
    /// options like ismcts:10000:threads=2 (two threads share the 10000 iterations: half the
    /// thinking time on 2 cores), :reuse (keeps its tree between decisions) or :settle
    /// (stops thinking once the choice can no longer change)
    /// [default: ismcts:10000:threads=2].
    #[arg(long, value_name = "AGENT", value_parser = super::values::one_agent)]
    pub ai: Option<AgentSpec>,
    /// Seed of the deal and of the agent; names the log [default: a random seed, kept secret
    /// (no log written, no position saved against an agent) until the game ends].
    #[arg(short, long, value_name = "SEED", value_parser = super::values::seed, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Play on from this scenario file's position (after its `play` choices) [default: a new deal].
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
    /// Write the game log here; `-`: no log [default: watergate-<seed>.log.ron in the per-user
    /// log folder, $XDG_DATA_HOME/watergate/logs or ~/.local/share/watergate/logs].
    #[arg(long, value_name = "FILE")]
    pub log: Option<String>,
    /// Plain text: no ANSI colours (the same as the global --color never).
    #[arg(long, alias = "no-color")]
    pub no_colour: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
    /// One short screen per decision: the board, your hand and the options
    /// within 50 lines (`cards` at the prompt shows the actions).
    #[arg(long)]
    pub compact: bool,
}

/// Where `play` keeps its logs when `--log` is not given: the per-user data
/// folder of the XDG base directory spec, `$XDG_DATA_HOME/watergate/logs`,
/// or `~/.local/share/watergate/logs` when that is unset (or not absolute,
/// as the spec asks). Never the current folder.
pub fn log_folder() -> Result<PathBuf, CliError> {
    let absolute = |v: std::ffi::OsString| {
        let p = PathBuf::from(v);
        p.is_absolute().then_some(p)
    };
    let data = std::env::var_os("XDG_DATA_HOME")
        .and_then(absolute)
        .or_else(|| {
            std::env::var_os("HOME")
                .and_then(absolute)
                .map(|h| h.join(".local/share"))
        })
        .ok_or_else(|| {
            CliError::Message(
                "no per-user log folder for the game log (neither XDG_DATA_HOME nor HOME is set); pass --log FILE, or --log - for no log".into(),
            )
        })?;
    Ok(data.join("watergate").join("logs"))
}

/// The log file of a game: `--log FILE` (never one of the files the game
/// is read from), none for `--log -`, else a file named after the seed in
/// `log_folder()` (created if needed), numbered when that name is taken
/// (`watergate-4-2.log.ron`): a game of the same seed does not replace an
/// earlier one's log. Checked before the game starts; the game says where
/// the log is when it ends.
fn log_path(a: &PlayArgs, seed: u64) -> Result<Option<PathBuf>, CliError> {
    let path = match a.log.as_deref() {
        Some("-") => return Ok(None),
        Some(p) => {
            let path = PathBuf::from(p);
            // The log is written from the first decision on: `--log s.ron`
            // with `--scenario s.ron` would replace the scenario before
            // anything was played.
            let inputs: Vec<_> = [
                ("the --scenario file", a.scenario.as_deref()),
                ("the --variant file", a.game.variant.as_deref()),
            ]
            .into_iter()
            .filter_map(|(what, p)| Some((what, p?)))
            .collect();
            super::paths::distinct(&inputs, &[("--log", &path)])?;
            super::paths::outside_games(&[("the game", &a.game.source())], &[("--log", &path)])?;
            path
        }
        None => {
            let dir = log_folder()?;
            std::fs::create_dir_all(&dir).map_err(|e| {
                CliError::Message(format!(
                    "cannot create the log folder {}: {e}; pass --log FILE, or --log - for no log",
                    dir.display()
                ))
            })?;
            super::paths::free_name(&dir, &format!("watergate-{seed}"), ".log.ron")?
        }
    };
    super::paths::output_file("--log", &path)?;
    Ok(Some(path))
}

/// A seed when none is given ([`crate::app::secret::random_seed`]): it
/// derives every hidden card, so it is a secret until the game ends.
pub(super) fn unchosen_seed() -> Result<u64, CliError> {
    crate::app::secret::random_seed().map_err(|e| {
        CliError::Message(format!(
            "no random seed from the operating system ({e}); pass --seed N"
        ))
    })
}

pub fn run(a: &PlayArgs, color: super::ColorChoice) -> CliResult {
    if a.side == Humans::Both && a.ai.is_some() {
        return Err(CliError::Message(
            "--ai names the opponent of one human; with --as both nobody needs one".into(),
        ));
    }
    let seed = match a.seed {
        Some(seed) => seed,
        None => unchosen_seed()?,
    };
    let log_path = log_path(a, seed)?;
    let ai = a.ai.clone().unwrap_or_else(AgentSpec::default_opponent);
    let (rules, game) = match &a.scenario {
        None => {
            let r = a.game.rules()?;
            let mut g = Game::new(&r, seed, a.side, &ai);
            if a.seed.is_none() {
                g.keep_seed_secret();
            }
            g.origin = RulesOrigin::of(&a.game.source(), None);
            g.log_rules();
            (r, g)
        }
        Some(file) => {
            let scn = Scenario::from_file(file).map_err(CliError::Data)?;
            let r = scn.rules(&a.game.source()).map_err(CliError::Data)?;
            let mut s = scn.start(&r).map_err(CliError::Data)?;
            scn.play_choices(&r, &mut s)
                .map_err(|stop| super::scenario::script_stop(&scn, stop))?;
            if let Some(o) = s.outcome() {
                return Err(CliError::Message(format!(
                    "{}: the game is already over there ({} won)",
                    scn.display, o.winner
                )));
            }
            let name = if scn.def.name.is_empty() {
                scn.display.clone()
            } else {
                scn.def.name.clone()
            };
            let mut g = Game::from_state(&r, s, &name, seed, a.side, &ai);
            g.origin = RulesOrigin::of(&a.game.source(), Some(&scn));
            // The log names the data, the variant (a puzzle's
            // `variant: "../variants/old_board.ron"`) and the edits, so
            // that `watergate replay LOG` plays on them.
            g.log_rules();
            if let Some(goal) = scn.goal() {
                g.intro.push_str(&format!("\nGoal: {goal}"));
            }
            (r, g)
        }
    };
    let colour = !a.no_colour && color.enabled();
    let settings = Settings {
        colour,
        // Hotseat hides the last player's screen, scrollback too, wherever
        // there is a screen: on a terminal, or when colours are forced.
        clear_screen: colour || std::io::stdout().is_terminal(),
        compact: a.compact,
        log_path,
        farewell: super::interrupt::on_interrupt(say_farewell),
        echo: !std::io::stdin().is_terminal(),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let played = terminal::play(&rules, game, settings, stdin.lock(), stdout.lock());
    // The game has said its own goodbye.
    terminal::FAREWELL
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    match played {
        Ok(terminal::Ended {
            script_error: Some(error),
            ..
        }) => Err(CliError::Script {
            error: Box::new(error),
            context: "the game stopped before that choice; its log holds every choice up to it"
                .into(),
        }),
        Ok(_) => Ok(()),
        // The output was closed (`| head`): nothing more to say.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Message(format!("terminal: {e}"))),
    }
}

/// Ctrl-C during a game: the log written and the goodbye said as `quit`
/// would (`terminal::Farewell`), on standard error (the game holds
/// standard output while it waits for an answer).
fn say_farewell() {
    let farewell = terminal::FAREWELL
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    let Some(farewell) = farewell else {
        return;
    };
    let mut text = farewell.text;
    if let Some((path, log)) = farewell.log {
        if let Err(e) = std::fs::write(&path, log) {
            text = format!("\nCannot write the log to {}: {e}.", path.display());
        }
    }
    eprintln!("{text}");
}
