//! Playing in the terminal: one human against an agent, or two humans at
//! one terminal (hotseat). Generic over input and output so tests drive it
//! with scripted lines.
//!
//! Each human decision shows the deciding player's screen — only what that
//! player may see (`render` with the player as viewer) — and the numbered
//! options; the player answers with a number, a choice in notation, or a
//! command. Everything that happens is narrated one line per event, from
//! the player's own observations (each player's `Sight` follows the game,
//! R4.3; `narrate`). In hotseat mode the terminal asks
//! the players to swap before showing the other player's screen, and keeps
//! what happened on the way for the other player's next screen. Every
//! decided choice goes into the game log, written after each decision so
//! a game cut short still leaves its log.
//!
//! The game itself (the seats, the driver, the log, each player's
//! narration, undo) is a `session::Session`, the same as the studio's; the
//! terminal is its front end: it asks the humans and prints what they are
//! told.

use crate::app::session::answer::{self, Answer, Reading};
use crate::app::session::undo::NoUndo;
use crate::app::session::{
    sentence, the, Asked, Failure, Front, Paused, Ran, Record, Session, Turn,
};
use crate::formats::log::GameLog;
use crate::formats::render::{self, Style};
use crate::formats::scenario::save;
use crate::game::engine::notation::{format_choice, kind_name};
use crate::game::engine::{Choice, Decision, DecisionKind, PlayError, TokenRef};
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::{Frame, Moving, Phase, State};
use crate::lab::sim::game_seed;
use crate::players::agent::AgentSpec;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

pub use crate::app::session::seats::Humans;

/// A game ready to be played: its session (position, log so far, players)
/// and how the terminal introduces it.
pub struct Game {
    session: Session,
    /// Printed before the first screen (which scenario, which seed).
    pub intro: String,
    /// Where the rules come from, written into a saved position.
    pub origin: save::RulesOrigin,
    /// The seed of a new deal.
    seed: Option<u64>,
    /// The seed was not chosen by the player: it is a secret until the end
    /// (it derives every hidden card): not printed, no log written and no
    /// position saved against an agent before then (issue 40).
    seed_secret: bool,
    /// The options besides `--seed` that deal this game again against
    /// the same opponent (`--as nixon --ai heuristic`), each a shell word:
    /// shown with a secret seed at the end.
    pub deal_again: Vec<String>,
}

impl Game {
    /// A new game from `seed`; `ai` plays the side no human plays.
    pub fn new(r: &Rules, seed: u64, humans: Humans, ai: &AgentSpec) -> Game {
        let session = Session::new_game(r, seed, humans, Some(ai));
        let mut g = Game::with(session, seed);
        g.seed = Some(seed);
        g.intro = format!("A new game of Watergate, seed {seed}.");
        g
    }

    /// The player did not choose the seed: keep it secret until the game
    /// is over, then show it (so the game can be dealt again).
    pub fn keep_seed_secret(&mut self) {
        if self.seed.is_some() {
            self.seed_secret = true;
            self.intro = "A new game of Watergate (its seed is shown when the game ends).".into();
        }
    }

    /// A game played on from a position (a loaded scenario). `seed` seeds
    /// the agent; the position carries its own generator.
    pub fn from_state(
        r: &Rules,
        mut state: State,
        name: &str,
        seed: u64,
        humans: Humans,
        ai: &AgentSpec,
    ) -> Game {
        // Random events are drawn, not decided, in play (the solver's
        // explicit chance is for search).
        state.set_explicit_chance(false);
        let session = Session::from_position(r, state, name, seed, humans, Some(ai));
        let mut g = Game::with(session, seed);
        g.intro = if name.is_empty() {
            "Playing on from a saved position.".to_string()
        } else {
            format!("Playing on from the position of `{name}`.")
        };
        g
    }

    /// Writes where the rules come from (`origin`: the data root, the
    /// variant, a scenario's edits) into the game's log, so that its replay
    /// plays with them by itself (`RulesOrigin::stamp_log`; what a log
    /// cannot carry is said with the replay command).
    pub fn log_rules(&mut self) {
        self.origin.stamp_log(&mut self.session.record.log.start);
    }

    fn with(session: Session, seed: u64) -> Game {
        Game {
            // Picks chance outcomes, should a position ask for them (solver
            // positions); its own generator, so the game's is never touched.
            session: session.with_chance(Pcg64Mcg::seed_from_u64(game_seed(seed, 3))),
            intro: String::new(),
            origin: save::RulesOrigin::default(),
            seed: None,
            seed_secret: false,
            deal_again: Vec::new(),
        }
    }
}

/// How the terminal looks and where the log goes.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// ANSI colours.
    pub colour: bool,
    /// Hotseat: clear the screen and the terminal's scrollback before each
    /// player's screen, so the next player cannot scroll back to the last
    /// one's hand (on a terminal; pointless in a pipe).
    pub clear_screen: bool,
    /// One short screen per decision (`play --compact`): the board, the
    /// hand and the options within 50 lines; `cards` shows the actions.
    /// What happened since the player's last decision is told before it
    /// and is not cut to fit: an opponent's turn of reactions can take
    /// more lines than a screen, and every event of it is the player's to
    /// know.
    pub compact: bool,
    /// Where to write the game log; `None`: no log.
    pub log_path: Option<PathBuf>,
    /// Keep [`FAREWELL`] up to date, for a Ctrl-C handler (`play`).
    pub farewell: bool,
    /// Write each line read after its prompt: input from a pipe or a file
    /// is not shown by a terminal, so without it the answers are missing
    /// from the transcript and the next line of output shares the prompt's
    /// line (`play` sets it when standard input is no terminal).
    pub echo: bool,
}

/// What Ctrl-C in `play` leaves behind: what `quit` would say (the seed of
/// a game whose seed was a secret, where the log is) and the log it would
/// write. The terminal keeps it up to date after every choice
/// (`Settings::farewell`); `play`'s handler writes and says it, then ends
/// the process. The game cannot be stopped in between, as the runners
/// are: it waits in a read of standard input, which the signal does not
/// end.
pub struct Farewell {
    pub text: String,
    pub log: Option<(PathBuf, String)>,
}

pub static FAREWELL: std::sync::Mutex<Option<Farewell>> = std::sync::Mutex::new(None);

/// `quit`'s first line.
fn stopped_after(log: &GameLog) -> String {
    format!(
        "Stopped after {}.",
        crate::game::wording::count(log.choices.len(), "choice")
    )
}

/// A line of what the terminal says outside a screen.
enum Line {
    /// Words, wrapped to fit in [`render::WIDTH`].
    Text(String),
    /// A command to copy, its words each quoted for the shell: on a line
    /// of its own, indented, and never cut inside a word (a cut command
    /// would not run when pasted).
    Command(Vec<String>),
}

impl Line {
    /// The line as printed: a text wrapped (an empty one kept), a command
    /// indented by 2. A command too long for [`render::WIDTH`] goes on
    /// over lines that end in ` \` (the shell's line continuation: pasted,
    /// they run as one line), the next indented by 4; a word longer than a
    /// line (a long path) has a line of its own.
    fn fitted(&self) -> Vec<String> {
        match self {
            Line::Text(t) if t.is_empty() => vec![String::new()],
            Line::Text(t) => render::wrap(t, render::WIDTH),
            Line::Command(words) => {
                let whole = format!("  {}", words.join(" "));
                if whole.chars().count() <= render::WIDTH {
                    return vec![whole];
                }
                let mut lines = Vec::new();
                let mut line = String::from("  ");
                let mut width = 2;
                for (i, word) in words.iter().enumerate() {
                    let w = word.chars().count();
                    // Room for the word, and for ` \` after it.
                    if i > 0 && width + 1 + w + 2 > render::WIDTH {
                        line.push_str(" \\");
                        lines.push(std::mem::replace(&mut line, String::from("    ")));
                        width = 4;
                    } else if i > 0 {
                        line.push(' ');
                        width += 1;
                    }
                    line.push_str(word);
                    width += w;
                }
                lines.push(line);
                lines
            }
        }
    }
}

/// `watergate` and its arguments, as [`Line::Command`] takes them.
fn command(words: &[&str]) -> Line {
    Line::Command(
        std::iter::once("watergate")
            .chain(words.iter().copied())
            .map(str::to_string)
            .collect(),
    )
}

/// How a game at the terminal ended.
pub struct Ended {
    pub state: State,
    pub log: GameLog,
    /// The players stopped before the end (`quit`, or the end of input).
    pub quit: bool,
    /// The game stopped because a card script failed: the script to blame
    /// (the state and log are as they were before that choice).
    pub script_error: Option<crate::game::engine::ScriptError>,
}

/// Why the terminal stopped the game before a human decision.
enum Stop {
    /// `undo` by this side.
    Undo(Side),
    Quit,
}

/// The terminal: the session's front end, the humans' side of the game.
struct Terminal<'r, R: BufRead, W: Write> {
    r: &'r Rules,
    humans: Humans,
    intro: String,
    origin: save::RulesOrigin,
    settings: Settings,
    input: R,
    out: W,
    /// The deal's seed, and whether it is still a secret (see
    /// `Game::keep_seed_secret`).
    seed: Option<u64>,
    seed_secret: bool,
    /// `Game::deal_again`.
    deal_again: Vec<String>,
    /// How many lines of each side's narration it has been shown; in
    /// hotseat, the rest waits for that player's next screen.
    told: BySide<usize>,
    /// Whose screen was shown last.
    viewer: Option<Side>,
    script_error: Option<crate::game::engine::ScriptError>,
}

/// Plays `game` at the terminal until it ends or the players quit.
pub fn play<R: BufRead, W: Write>(
    r: &Rules,
    game: Game,
    settings: Settings,
    input: R,
    out: W,
) -> io::Result<Ended> {
    let Game {
        mut session,
        intro,
        origin,
        seed,
        seed_secret,
        deal_again,
    } = game;
    let mut t = Terminal {
        r,
        humans: session.humans(),
        intro,
        origin,
        settings,
        input,
        out,
        seed,
        seed_secret,
        deal_again,
        told: BySide::default(),
        viewer: None,
        script_error: None,
    };
    let quit = t.run(&mut session)?;
    Ok(Ended {
        state: session.state,
        log: session.record.log,
        quit,
        script_error: t.script_error,
    })
}

const HELP: &str = "\
Answer with the number of an option, or with its notation (shown next to
it; a card's id may drop its side: `editor.<card> value` or `<card> value`;
other choices read `ev2`, `ask blue`, `pass`, a board space such as `{SPACE}`…).
Commands:
  help          this text
  board, show   draw the screen again
  cards         your hand with each card's action
  undo          take back your last decision, if you have seen nothing new
                since (no reply, no card or token drawn or shown)
  save FILE     save the current position as a scenario file
                (play on with `watergate play --scenario FILE`);
                `save! FILE` replaces a file that exists
  quit          stop here; the log keeps the game so far
Rule numbers in messages (R5.6) are the numbered rules of docs/rules.md in
the watergate repository (`#r5-6`); Q1-Q12 are in docs/open-questions.md.";

/// The `help` text, its example space one of the board's own (the
/// board is data: a designer's board has other names).
fn help(r: &Rules) -> String {
    let space = r
        .board
        .spaces
        .iter()
        .find(|s| matches!(s.kind, crate::game::rules::SpaceKind::Evidence(_)))
        .or(r.board.spaces.first())
        .map_or("-", |s| s.id.as_str());
    HELP.replace("{SPACE}", space)
}

/// The terminal asks the humans at their decisions (and stops the game
/// for `undo` and `quit`), and tells each choice once it has applied.
impl<R: BufRead, W: Write> Front for Terminal<'_, R, W> {
    type Stop = Stop;
    type Error = io::Error;

    fn decide(&mut self, asked: Asked<'_>) -> io::Result<Turn<Stop>> {
        self.ask(asked)
    }

    /// The pause is asked as the reaction window it stands for, with
    /// passing the only option: the same screens, handovers and prompt.
    fn pause(&mut self, paused: Paused<'_>) -> io::Result<ControlFlow<Stop>> {
        let side = paused.pause.to;
        let decision = paused.pause.decision();
        let asked = Asked {
            state: paused.state,
            side,
            decision: &decision,
            record: paused.record,
        };
        Ok(match self.ask(asked)? {
            Turn::Choose(_) => ControlFlow::Continue(()),
            Turn::Stop(why) => ControlFlow::Break(why),
        })
    }

    /// The terminal tells events, not choices: a secret choice has none
    /// to tell the other player.
    fn applied(
        &mut self,
        _: &State,
        record: &Record,
        mover: Option<Side>,
        _secret: bool,
    ) -> io::Result<()> {
        self.tell(record, mover)?;
        self.write_log(&record.log)
    }
}

impl<R: BufRead, W: Write> Terminal<'_, R, W> {
    fn style(&self, viewer: Option<Side>) -> Style {
        Style {
            colour: self.settings.colour,
            viewer,
        }
    }

    /// `text` in lines that fit in [`render::WIDTH`], its own line
    /// breaks kept.
    fn say(&mut self, text: &str) -> io::Result<()> {
        for paragraph in text.lines() {
            for line in render::wrap(paragraph, render::WIDTH) {
                writeln!(self.out, "{line}")?;
            }
        }
        Ok(())
    }

    /// The game loop, on the session; `true` when the players quit.
    fn run(&mut self, session: &mut Session) -> io::Result<bool> {
        let intro = self.intro.clone();
        self.say(&intro)?;
        let welcome = match self.humans {
            Humans::One(side) => format!(
                "You play {}; {} plays {}. Type `help` for the commands.",
                the(side),
                session.record.log.players.get(side.other()),
                the(side.other())
            ),
            Humans::Both => "Hotseat: two players at one terminal; each screen shows only its player's view. Type `help` for the commands.".to_string(),
        };
        self.say(&welcome)?;
        // The setup's narration (a new game deals and draws before the
        // first decision).
        self.tell(&session.record, None)?;
        self.write_log(&session.record.log)?;
        loop {
            match session.play(self.r, self) {
                Ok(Ran::Over) => {
                    self.game_over(&session.state, &session.record.log)?;
                    return Ok(false);
                }
                Ok(Ran::Stopped(Stop::Undo(side))) => self.undo(session, side)?,
                Ok(Ran::Stopped(Stop::Quit)) => return self.quit(&session.record.log),
                Err(Failure::Front(e)) => return Err(e),
                Err(Failure::Choice { human, error, .. }) => {
                    // The game is as before the choice, which is out of the
                    // log: a human may choose again; an agent would choose
                    // the same, so the game cannot go on.
                    self.say(&format!("That choice failed: {error}"))?;
                    if let PlayError::Script(se) = error {
                        // The data is broken, not the choice: stop, with the
                        // game as it was before it, and blame the script.
                        self.script_error = Some(*se);
                        return self.quit(&session.record.log);
                    }
                    if !human {
                        return self.quit(&session.record.log);
                    }
                }
                Err(Failure::Lookahead { side, error }) => {
                    // Its look-ahead reached a state where a card script
                    // fails: the game could reach it too.
                    self.say(&format!(
                        "{side}'s agent found a failing card script while looking ahead: {error}"
                    ))?;
                    self.script_error = Some(error);
                    return self.quit(&session.record.log);
                }
                Err(Failure::Illegal { side }) => {
                    writeln!(
                        self.out,
                        "{side}'s agent chose an option that is not legal; the game stops here."
                    )?;
                    return self.quit(&session.record.log);
                }
                // The terminal always draws chance.
                Err(Failure::NoChance) => return self.quit(&session.record.log),
            }
        }
    }

    /// Tells the humans what they have not been told yet: at once the one
    /// who acted (or, in a game against an agent, the one human); in
    /// hotseat, the other player reads it at their next screen.
    fn tell(&mut self, record: &Record, mover: Option<Side>) -> io::Result<()> {
        for side in Side::BOTH {
            let now = match self.humans {
                Humans::One(human) => side == human,
                Humans::Both => Some(side) == mover,
            };
            if now {
                for line in self.untold(record, side) {
                    writeln!(self.out, "{}", bullet(&line))?;
                }
            }
        }
        Ok(())
    }

    /// The lines of `side`'s narration it has not been shown yet, now
    /// counted as shown.
    fn untold(&mut self, record: &Record, side: Side) -> Vec<String> {
        let lines = record.narration.lines(side);
        let from = self.told[side].min(lines.len());
        self.told[side] = lines.len();
        lines[from..].to_vec()
    }

    /// One human decision: the screen, the options, and answers until one
    /// of them is a choice or a command that leaves the decision.
    fn ask(&mut self, asked: Asked<'_>) -> io::Result<Turn<Stop>> {
        let Asked {
            state: s,
            side,
            decision: d,
            record,
        } = asked;
        let swap = self.humans == Humans::Both && self.viewer.is_some_and(|v| v != side);
        if swap && !self.handover(side)? {
            return Ok(Turn::Stop(Stop::Quit));
        }
        self.viewer = Some(side);
        self.show(s, side, d, record)?;
        let reading = Reading {
            first: 1,
            explain: Some(side),
        };
        loop {
            write!(self.out, "{side}> ")?;
            self.out.flush()?;
            let Some(line) = self.read_line()? else {
                writeln!(self.out)?;
                writeln!(self.out, "End of input.")?;
                return Ok(Turn::Stop(Stop::Quit));
            };
            let text = line.trim();
            let (word, rest) = match text.split_once(char::is_whitespace) {
                Some((w, rest)) => (w.to_ascii_lowercase(), rest.trim()),
                None => (text.to_ascii_lowercase(), ""),
            };
            match word.as_str() {
                "" => continue,
                "help" | "?" => writeln!(self.out, "{}", help(self.r))?,
                "board" | "show" => self.show(s, side, d, record)?,
                "cards" => self.hand(s, side)?,
                "quit" | "exit" => return Ok(Turn::Stop(Stop::Quit)),
                "undo" => match record.history.target(side) {
                    Ok(_) => return Ok(Turn::Stop(Stop::Undo(side))),
                    Err(NoUndo::Nothing) => {
                        writeln!(self.out, "Nothing to undo: this is the first decision.")?
                    }
                    Err(why) => self.say(&sentence(&why.to_string()))?,
                },
                "save" | "save!" if rest.is_empty() => {
                    writeln!(self.out, "Save where? Type `save FILE`.")?
                }
                "save" if Path::new(rest).exists() => self.say(&format!(
                    "Not saved: {rest} already exists. `save! {rest}` replaces it."
                ))?,
                "save" | "save!" => self.save(s, rest, &record.log)?,
                _ => match answer::choice(self.r, s, Answer::typed(text), &d.options, reading) {
                    Ok(c) => return Ok(Turn::Choose(c)),
                    Err(refused) => {
                        self.say(&refused.sentence())?;
                        self.say(&format!(
                            "(Type a number from 1 to {}, a choice in notation, or `help`.)",
                            d.options.len()
                        ))?;
                    }
                },
            }
        }
    }

    /// A line of input without its line end; `None` at the end of input.
    fn read_line(&mut self) -> io::Result<Option<String>> {
        let mut buf = Vec::new();
        if self.input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(None);
        }
        // Bad bytes are bad input, not a reason to stop.
        let line = String::from_utf8_lossy(&buf).into_owned();
        if self.settings.echo {
            writeln!(self.out, "{}", line.trim_end_matches(['\n', '\r']))?;
        }
        Ok(Some(line))
    }

    /// The player's screen: the position as they see it, then the decision.
    fn show(&mut self, s: &State, side: Side, d: &Decision, record: &Record) -> io::Result<()> {
        let hotseat = self.humans == Humans::Both;
        let pending = self.untold(record, side);
        let text = screen(
            self.r,
            s,
            &self.style(Some(side)),
            d,
            hotseat,
            self.settings.compact,
        );
        writeln!(self.out)?;
        let mut lines = text.lines();
        if let Some(header) = lines.next() {
            writeln!(self.out, "{header}")?;
        }
        if !pending.is_empty() {
            writeln!(self.out, "Since your last decision:")?;
            for line in pending {
                writeln!(self.out, "{}", bullet(&line))?;
            }
        }
        for line in lines {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    /// The player's hand with each card's action text.
    fn hand(&mut self, s: &State, side: Side) -> io::Result<()> {
        let st = self.style(Some(side));
        for c in s.hand(side).to_vec() {
            writeln!(self.out, "  {}", render::card_line(self.r, &st, c))?;
            for line in render::wrap(&self.r.card(c).action_text, 72) {
                writeln!(self.out, "      {line}")?;
            }
        }
        Ok(())
    }

    /// Clears the screen and the scrollback (`ESC[3J`), so the next player
    /// cannot read or scroll back to the last one's hand.
    fn clear(&mut self) -> io::Result<()> {
        if self.settings.clear_screen {
            write!(self.out, "{CLEAR}")?;
        }
        Ok(())
    }

    /// Hotseat: asks the players to swap; `false` if they quit instead.
    fn handover(&mut self, to: Side) -> io::Result<bool> {
        self.clear()?;
        writeln!(self.out)?;
        write!(
            self.out,
            "──── Pass the terminal to {}. {to}, press Enter when ready. ──── ",
            the(to)
        )?;
        self.out.flush()?;
        match self.read_line()? {
            None => {
                writeln!(self.out)?;
                writeln!(self.out, "End of input.")?;
                Ok(false)
            }
            Some(l) if matches!(l.trim(), "quit" | "exit") => Ok(false),
            Some(l) => {
                self.clear()?;
                // Anything typed here shows the screen as Enter does, and
                // is not a choice (the player has not seen the options
                // yet): said, after the clearing, so that it is not lost.
                let typed = l.trim();
                if !typed.is_empty() {
                    self.say(&format!(
                        "(`{}` was not taken as a choice: Enter shows your screen.)",
                        crate::game::wording::clipped(typed)
                    ))?;
                }
                Ok(true)
            }
        }
    }

    /// Back to the position before `side`'s last decision (`ask` let the
    /// undo through only if nothing came since).
    fn undo(&mut self, session: &mut Session, side: Side) -> io::Result<()> {
        let Ok(taken_back) = session.undo(side) else {
            return Ok(());
        };
        // What was kept for the other hotseat player no longer happened.
        self.told = session.record.narration.marks();
        writeln!(
            self.out,
            "Undone: {taken_back} choice{} taken back.",
            if taken_back == 1 { "" } else { "s" }
        )?;
        self.write_log(&session.record.log)
    }

    fn save(&mut self, s: &State, path: &str, log: &GameLog) -> io::Result<()> {
        if self.seed_secret && self.humans != Humans::Both {
            return self.say(
                "Not saved: a saved position holds every hidden card, and this game's deal is a secret until it ends. To save positions against an agent, start the game with `--seed N`.",
            );
        }
        let n = log.choices.len();
        let mut def = save::scenario_of(
            self.r,
            s,
            "saved game",
            &format!("saved by `watergate play` after {n} choices"),
        );
        let notes = self.origin.stamp(&mut def, Some(Path::new(path)));
        match std::fs::write(path, save::to_text(&def)) {
            Ok(()) => {
                self.say_line(&Line::Text(format!(
                    "Saved the position after {n} choices to {path}; play on from it with:"
                )))?;
                self.say_line(&command(&[
                    "play",
                    "--scenario",
                    &crate::formats::shell_word(path),
                ]))?;
                for note in notes {
                    self.say(&format!("Note: {note}."))?;
                }
                Ok(())
            }
            Err(e) => self.say(&format!("Cannot write {path}: {e}")),
        }
    }

    fn game_over(&mut self, s: &State, log: &GameLog) -> io::Result<()> {
        writeln!(self.out)?;
        // The game is over: nothing is secret any more.
        let st = self.style(None);
        write!(self.out, "{}", render::position(self.r, s, &st))?;
        if let Some(o) = s.outcome() {
            writeln!(self.out)?;
            self.say(&st.bold(&format!(
                "Game over: {} wins — {}.",
                o.winner,
                o.cause.describe()
            )))?;
        }
        self.end_secret()?;
        self.write_log(log)?;
        self.log_note()
    }

    /// The game is over (or stopped): a secret seed is shown, and the log
    /// it kept back is written.
    fn end_secret(&mut self) -> io::Result<()> {
        for line in self.secret_seed_lines() {
            self.say_line(&line)?;
        }
        self.seed_secret = false;
        Ok(())
    }

    /// The lines that show a secret seed, while it is one.
    fn secret_seed_lines(&self) -> Vec<Line> {
        let Some(seed) = self.seed.filter(|_| self.seed_secret) else {
            return Vec::new();
        };
        let seed = seed.to_string();
        let mut words = vec!["play", "--seed", &seed];
        words.extend(self.deal_again.iter().map(String::as_str));
        vec![
            Line::Text(format!("This game's seed was {seed}; this deals it again:")),
            command(&words),
        ]
    }

    fn quit(&mut self, log: &GameLog) -> io::Result<bool> {
        self.say(&stopped_after(log))?;
        self.end_secret()?;
        self.write_log(log)?;
        self.log_note()?;
        Ok(true)
    }

    fn log_note(&mut self) -> io::Result<()> {
        for line in self.log_note_lines() {
            self.say_line(&line)?;
        }
        Ok(())
    }

    fn say_line(&mut self, line: &Line) -> io::Result<()> {
        for text in line.fitted() {
            writeln!(self.out, "{text}")?;
        }
        Ok(())
    }

    /// Where the log is and how to replay it, if there is one.
    fn log_note_lines(&self) -> Vec<Line> {
        let Some(p) = &self.settings.log_path else {
            return Vec::new();
        };
        // The log names the data and variant the game was played on: the
        // command needs only the log, and the notes say what it lacks.
        let notes = self.origin.replay_notes();
        let mut lines = vec![
            Line::Text(format!(
                "The game's log is in {}; replay it with:",
                p.display()
            )),
            // Absolute, as the paths in the log are: the command replays
            // the game from any folder.
            command(&[
                "replay",
                &crate::formats::shell_word(
                    &std::path::absolute(p)
                        .unwrap_or_else(|_| p.clone())
                        .display()
                        .to_string(),
                ),
            ]),
        ];
        lines.extend(
            notes
                .iter()
                .map(|note| Line::Text(format!("Note: {note}."))),
        );
        lines
    }

    /// What Ctrl-C leaves now (`FAREWELL`): what `quit` would say, after
    /// the decisions so far, and the log it would write.
    fn keep_farewell(&self, log: &GameLog) {
        if !self.settings.farewell {
            return;
        }
        let mut text = vec![Line::Text(String::new()), Line::Text(stopped_after(log))];
        text.extend(self.secret_seed_lines());
        text.extend(self.log_note_lines());
        let log = self
            .settings
            .log_path
            .as_ref()
            .map(|p| (p.clone(), log.to_text()));
        let text: Vec<String> = text.iter().flat_map(Line::fitted).collect();
        let farewell = Farewell {
            text: text.join("\n"),
            log,
        };
        *FAREWELL.lock().unwrap_or_else(|p| p.into_inner()) = Some(farewell);
    }

    /// Writes the log as it stands (not while the seed is a secret: the
    /// log names it); on failure says so once and stops logging. What
    /// Ctrl-C would leave is kept up to date here too.
    fn write_log(&mut self, log: &GameLog) -> io::Result<()> {
        self.keep_farewell(log);
        if self.seed_secret {
            return Ok(());
        }
        if let Some(p) = &self.settings.log_path {
            if let Err(e) = std::fs::write(p, log.to_text()) {
                let text = format!(
                    "Cannot write the log to {}: {e}; the game goes on without a log.",
                    p.display()
                );
                self.say(&text)?;
                self.settings.log_path = None;
            }
        }
        Ok(())
    }
}

/// Home the cursor, erase the screen, then erase the scrollback. In this
/// order (as `clear` sends it): tmux and the VTE terminals push an erased
/// screen into the scrollback, so erasing the scrollback first left the
/// last player's hand there for the next to scroll back to.
pub const CLEAR: &str = "\x1b[H\x1b[2J\x1b[3J";

/// A player's screen for decision `d`: a header naming whose view it is,
/// the position as that player sees it (their hand with each card's
/// action), what the decision is about and the numbered options.
pub fn screen(
    r: &Rules,
    s: &State,
    st: &Style,
    d: &Decision,
    hotseat: bool,
    compact: bool,
) -> String {
    let side = st.viewer.unwrap_or(Side::Editor);
    let phase = phase_name(s.phase());
    let mut out = format!(
        "════ {side}'s view — round {}, {phase}{} ════\n",
        s.round(),
        if hotseat {
            format!(" (only {} looks)", the(side))
        } else {
            String::new()
        }
    );
    if compact {
        if let Some(o) = s.outcome() {
            out.push_str(&format!("{} wins: {}.\n", o.winner, o.cause.describe()));
        }
        out.push_str(&render::position_compact(r, s, st));
    } else {
        // The position's own first line repeats the round; the header says it.
        let body = render::position_with(r, s, st, true);
        for line in body.lines().skip(1) {
            out.push_str(line);
            out.push('\n');
        }
        out.push('\n');
    }
    for line in render::wrap(&decision_text(r, side, &d.kind), render::WIDTH) {
        out.push_str(&st.bold(&line));
        out.push('\n');
    }
    if let DecisionKind::Reaction { against } = d.kind {
        if let Some(answered) = answered_play(r, s, side, against) {
            render::write_wrapped(&mut out, &answered);
        }
        if d.options == [Choice::Pass] {
            // A hotseat pause (`Pause::decision`): a window always offers
            // a card to react with.
            render::write_wrapped(&mut out, &pause_text(r, against));
        }
    }
    let lines = option_lines(r, s, side, &d.options);
    // Options that take many lines on a short screen: their notation in
    // columns (the hand above names the cards).
    let taken: usize = lines.iter().map(|l| l.lines().count()).sum();
    if compact && taken > COMPACT_OPTION_LINES {
        let names: Vec<String> = d.options.iter().map(|c| format_choice(r, s, *c)).collect();
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        let cell = width + 6;
        let per_line = (render::WIDTH / cell).max(1);
        for (i, name) in names.iter().enumerate() {
            out.push_str(&format!("  {:>2}. {name:<width$}", i + 1));
            if (i + 1) % per_line == 0 || i + 1 == names.len() {
                let end = out.trim_end_matches(' ').len();
                out.truncate(end);
                out.push('\n');
            }
        }
        return out;
    }
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// A line of narration as the terminal prints it: a bullet, and the
/// words wrapped to fit in [`render::WIDTH`] under their first.
pub fn bullet(line: &str) -> String {
    render::wrap(line, render::WIDTH - 4)
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{}{l}", if i == 0 { "  • " } else { "    " }))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Why a hotseat pause (`Pause::decision`) came to its player, who has
/// nothing to do but pass.
pub fn pause_text(r: &Rules, against: CardId) -> String {
    format!(
        "You hold no card that may answer it. The screen came to you all the same, so that {} cannot tell whether you held one: pass it back.",
        the(r.card(against).side)
    )
}

/// What a reaction would answer (R6): the card's action in its words, or
/// the token its value moves and how far, so that a player who does not
/// know every card can decide. None if the play is not on the table.
fn answered_play(r: &Rules, s: &State, viewer: Side, against: CardId) -> Option<String> {
    let play = s.stack().iter().rev().find_map(|f| match f {
        Frame::Play(p) if p.card == against => Some(*p),
        _ => None,
    })?;
    let card = r.card(against);
    match (play.part, play.target) {
        (Some(Part::Action), _) => Some(format!("{}'s action: {}", card.name, card.action_text)),
        (Some(Part::Value), Some(target)) => {
            let token = match target {
                Moving::Initiative => TokenRef::Initiative,
                Moving::Momentum => TokenRef::Momentum,
                Moving::Evidence(t) => TokenRef::Evidence(s.slot_of(t)?),
            };
            Some(format!(
                "for its value: {}, {} step{} toward {}",
                crate::game::engine::notation::describe_choice(r, s, viewer, Choice::Token(token)),
                card.value,
                if card.value == 1 { "" } else { "s" },
                the(play.player)
            ))
        }
        _ => None,
    }
}

/// The numbered options, one a line: the notation (what to type) and the
/// words for `side`; the game's screens and the puzzle's list them so.
/// Words that would run past [`render::WIDTH`] go on in lines of their own
/// under the first, in the words' column when it leaves them room.
pub fn option_lines(r: &Rules, s: &State, side: Side, options: &[Choice]) -> Vec<String> {
    let names: Vec<String> = options.iter().map(|c| format_choice(r, s, *c)).collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    // "  12. " + the notation's column + two spaces.
    let column = 6 + width + 2;
    let (column, room) = match render::WIDTH.checked_sub(column) {
        Some(room) if room >= MIN_WORDS_COLUMN => (column, room),
        _ => (8, render::WIDTH - 8),
    };
    let mut lines = Vec::with_capacity(options.len());
    for (i, (c, name)) in options.iter().zip(&names).enumerate() {
        let words = crate::game::engine::notation::describe_choice(r, s, side, *c);
        let first = format!("  {:>2}. {name:<width$}  ", i + 1);
        if first.chars().count() + words.chars().count() <= render::WIDTH {
            lines.push(format!("{first}{words}"));
            continue;
        }
        let mut wrapped = render::wrap(&words, room).into_iter();
        let mut line = first;
        if column == 8 {
            // The notation leaves the words no room: they start below.
            lines.push(line.trim_end().to_string());
            line = " ".repeat(column);
        }
        line.push_str(&wrapped.next().unwrap_or_default());
        for more in wrapped {
            line.push('\n');
            line.push_str(&" ".repeat(column));
            line.push_str(&more);
        }
        lines.push(line);
    }
    lines
}

/// The fewest columns an option's words are given beside its notation;
/// with less, they go below it.
const MIN_WORDS_COLUMN: usize = 30;

/// How a phase is named on a screen and on the studio's pages.
pub fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Initial => "initial phase",
        Phase::Cards => "card phase",
        Phase::Evaluation => "evaluation phase",
        Phase::Over => "game over",
    }
}

/// Options listed one a line on a compact screen; more go into columns.
const COMPACT_OPTION_LINES: usize = 14;

/// What a decision is about, in a sentence for the player who takes it.
pub fn decision_text(r: &Rules, side: Side, kind: &DecisionKind) -> String {
    let name = |c: CardId| r.card(c).name.clone();
    match kind {
        DecisionKind::PlayCard => {
            "Your turn: play a card from your hand, for its value or its action.".to_string()
        }
        DecisionKind::ChoosePart { card } => {
            format!("You must play {} at once: for its value or its action?", name(*card))
        }
        DecisionKind::ValueTarget { card } => {
            let c = r.card(*card);
            let ask = if side == Side::Editor {
                ", or ask Nixon for a face-down token of one of its colours"
            } else {
                ""
            };
            format!(
                "{} for its value ({} {}): choose the token to move {} step{} toward you{ask}.",
                c.name,
                c.value,
                c.colours,
                c.value,
                if c.value == 1 { "" } else { "s" }
            )
        }
        DecisionKind::Reveal { colour } => format!(
            "The Editor asks for a face-down {colour} token: choose which of yours to turn face up."
        ),
        DecisionKind::LockedTarget { colour, .. } => format!(
            "Nixon has no face-down {colour} token: move a {colour} token, the initiative or the momentum token instead (the colour stays named, R5.6)."
        ),
        DecisionKind::Reaction { against } => {
            let player = r.card(*against).side;
            format!(
                "{} plays {}: react, or pass.",
                player,
                name(*against)
            )
        }
        DecisionKind::Pin {
            colours,
            momentum_symbol,
        } => format!(
            "Pin the {} token: choose an empty space whose slip matches it.",
            kind_name(*colours, *momentum_symbol)
        ),
        DecisionKind::Action { card, ask } => match card {
            Some(c) => format!("{}: {}", name(*c), crate::game::wording::ask(ask)),
            None => crate::game::wording::ask(ask),
        },
        DecisionKind::Chance { what, .. } => format!("Chance: {}.", crate::game::wording::chance(*what)),
    }
}
