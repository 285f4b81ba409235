//! `watergate play`: a game at the terminal, against an agent or hotseat,
//! from a new deal or a scenario's position; every game writes a log.

use super::{CliError, CliResult};
use crate::app::terminal::{self, Game, Humans, Settings};
use crate::formats::scenario::save::RulesOrigin;
use crate::formats::scenario::Scenario;
use crate::game::model::Side;
use crate::players::agent::AgentSpec;
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The side you play: editor, nixon, or both (hotseat: two players at one terminal).
    #[arg(long = "as", value_name = "SIDE", default_value = "editor", value_parser = Humans::parse)]
    pub side: Humans,
    /// The agent that plays the other side: random, heuristic, ismcts:N or ismcts:Nms (ismcts
    /// alone: ismcts:1000), with options like ismcts:10000:threads=2 (two threads share the 10000 iterations: half the
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
    /// Write the game log here (a file that exists is refused, unless --force); `-`: no log
    /// [default: watergate-<seed>.log.ron in the per-user log folder,
    /// $XDG_DATA_HOME/watergate/logs or ~/.local/share/watergate/logs].
    #[arg(long, value_name = "FILE")]
    pub log: Option<String>,
    /// Let --log FILE replace a file that exists (the log of an earlier game, say).
    #[arg(long)]
    pub force: bool,
    /// Plain text: no ANSI colours (the same as the global --color never).
    #[arg(long, alias = "no-color")]
    pub no_colour: bool,
    #[command(flatten)]
    pub game: super::GameArgs,
    /// One short screen per decision: the board, your hand and the options
    /// within 50 lines, below the moves told since your last decision, which
    /// may take more (`cards` at the prompt shows the actions).
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
/// is read from, nor a file that exists unless `--force`), none for `--log -`, else a file named after the seed in
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
            // The log is written from the first decision on: a finished
            // game's log named by mistake would be gone before the player
            // noticed (`save FILE` in the game refuses so too).
            if !a.force && std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                return Err(CliError::Message(format!(
                    "--log {p}: already exists (the log of another game?); name another file, remove it, or pass --force to replace it"
                )));
            }
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

/// The game played, for the header, when it is not the shipped game as it
/// is: named as `simulate`'s reports name it (`mydata/ + house.ron`), with
/// the variant's own name.
fn game_line(game: &super::GameArgs) -> Option<String> {
    if game.data.is_none() && game.variant.is_none() {
        return None;
    }
    let data = crate::lab::report::data_label(game.data.as_deref());
    let Some(file) = &game.variant else {
        return Some(format!("The game: {data}."));
    };
    // The file loaded a moment ago, with the game.
    let name = crate::data::variant::Variant::from_file(file)
        .map(|v| v.def.name)
        .unwrap_or_default();
    Some(if name.is_empty() {
        format!("The game: {data} + {}.", file.display())
    } else {
        format!(
            "The game: {data} + {} (the variant `{name}`).",
            file.display()
        )
    })
}

/// The options besides `--seed` that deal the same game against the same
/// opponent again, each a word for the shell: the side played, the agent
/// named, the data and the variant (not `--log`, `--force`, `--compact`:
/// they do not change the game).
fn deal_again(a: &PlayArgs) -> Vec<String> {
    let word = |p: &std::path::Path| crate::formats::shell_word(&p.display().to_string());
    let mut words = Vec::new();
    match a.side {
        Humans::One(Side::Editor) => {}
        Humans::One(Side::Nixon) => words.extend(["--as".into(), "nixon".into()]),
        Humans::Both => words.extend(["--as".into(), "both".into()]),
    }
    if let Some(ai) = &a.ai {
        words.extend(["--ai".into(), crate::formats::shell_word(&ai.to_string())]);
    }
    if let Some(d) = &a.game.data {
        words.extend(["--data".into(), word(d)]);
    }
    if let Some(v) = &a.game.variant {
        words.extend(["--variant".into(), word(v)]);
    }
    words
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
    let (rules, mut game) = match &a.scenario {
        None => {
            let r = a.game.rules()?;
            let mut g = Game::new(&r, seed, a.side, &ai);
            if a.seed.is_none() {
                g.keep_seed_secret();
            }
            g.deal_again = deal_again(a);
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
    if let Some(line) = game_line(&a.game) {
        game.intro.push('\n');
        game.intro.push_str(&line);
    }
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

/// Ctrl-C (or SIGTERM) during a game: the log written and the goodbye said
/// as `quit` would say it (`terminal::Farewell`), on standard output as
/// `quit`'s: it is the game's transcript, and a player who pipes it
/// (`> game.txt`, `| tee game.txt`) finds the game's end there however it
/// ended. The game holds standard output's lock while it waits for an
/// answer, so the goodbye goes past it, to the same file. When standard
/// output is no terminal it is said on standard error as well: the reader
/// of a pipe (`tee`, `less`) is stopped by the same Ctrl-C, and the player
/// would not learn where the log is.
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
    let text = format!("{text}\n");
    if !past_the_lock(&text) || !std::io::stdout().is_terminal() {
        eprint!("{text}");
    }
}

/// Writes `text` to standard output without its lock (which the game
/// holds, waiting in a read), through a copy of its file descriptor;
/// `false` if it could not.
#[cfg(unix)]
fn past_the_lock(text: &str) -> bool {
    use std::io::Write;
    use std::os::fd::AsFd;
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return false;
    };
    std::fs::File::from(fd).write_all(text.as_bytes()).is_ok()
}

#[cfg(not(unix))]
fn past_the_lock(_: &str) -> bool {
    false
}
