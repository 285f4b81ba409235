//! The terminal, driven by scripted input: a whole game against the random
//! agent with bad input, `undo`, `save` and `help`; hotseat screens that
//! never show the Editor a face-down token; and game logs that replay to the
//! same end.

use crate::common::temp::TempFolder;
use std::io::Cursor;
use std::ops::ControlFlow;
use std::path::PathBuf;
use watergate::app::terminal::{self, Ended, Game, Humans, Settings};
use watergate::formats::log::{self, players, GameLog};
use watergate::formats::scenario::Scenario;
use watergate::game::engine::notation::format_choice;
use watergate::game::engine::Observer;
use watergate::game::engine::{Actor, Choice};
use watergate::game::model::BySide;
use watergate::game::model::Side;
use watergate::game::rules::Rules;
use watergate::game::state::{PlayFrame, State};
use watergate::lab::driver::{play_out, play_out_alone, OnChoice, OnDecision, Steps};
use watergate::lab::sim::game_seed;
use watergate::players::agent::RandomAgent;

/// A folder of the test's own for its files (removed when dropped).
fn temp(test: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-terminal-{test}"))
}

/// Plays `game` with `lines` as the input; the end and everything printed.
fn drive(r: &Rules, game: Game, lines: &[String], log: Option<PathBuf>) -> (Ended, String) {
    let input = Cursor::new(lines.join("\n").into_bytes());
    let mut out = Vec::new();
    let settings = Settings {
        colour: false,
        log_path: log,
        ..Default::default()
    };
    let ended = terminal::play(r, game, settings, input, &mut out).expect("no I/O error");
    (
        ended,
        String::from_utf8(out).expect("the terminal writes UTF-8"),
    )
}

/// The first seed whose Editor starts with a reaction card in hand (so the
/// test can ask for its action, which is refused with the engine's reason).
fn seed_with_reaction_in_hand(r: &Rules) -> (u64, String) {
    for seed in 0..1000 {
        let s = State::new(r, seed);
        if let Some(c) = s
            .hand(Side::Editor)
            .iter()
            .find(|c| r.card(**c).is_reaction())
        {
            return (seed, r.card(*c).id.clone());
        }
    }
    panic!("no seed deals the Editor a reaction card");
}

#[test]
fn a_whole_game_as_the_editor_against_the_random_agent() {
    let r = watergate::data::shipped();
    let (seed, reaction) = seed_with_reaction_in_hand(&r);
    let nixon_card = r.card(r.cards_of(Side::Nixon).next().unwrap()).id.clone();
    let dir = temp("undo-and-save");
    let saved = dir.join("saved.ron");
    let log_path = dir.join("editor.log.ron");
    let mut lines: Vec<String> = vec![
        "undo".into(),
        "garbage".into(),
        "an answer long enough that its refusal, which quotes it, runs past eighty columns".into(),
        "0".into(),
        "999".into(),
        "-3".into(),
        format!("{nixon_card} value"),
        format!("{reaction} action"),
        "help".into(),
        "".into(),
    ];
    // The first choice is the Editor's own, with nothing shown since:
    // undone. Four choices on, Nixon has replied: undo is refused.
    lines.push("1".into());
    lines.push("undo".into());
    lines.extend(std::iter::repeat_n("1".to_string(), 4));
    lines.push("undo".into());
    lines.extend(std::iter::repeat_n("1".to_string(), 3));
    lines.push(format!("save {}", saved.display()));
    // Saving again over it is refused; `save!` replaces it.
    lines.push(format!("save {}", saved.display()));
    lines.push(format!("save! {}", saved.display()));
    lines.push("board".into());
    lines.extend(std::iter::repeat_n("1".to_string(), 5000));

    let game = Game::new(
        &r,
        seed,
        Humans::One(Side::Editor),
        &watergate::players::agent::AgentSpec::Random,
    );
    let (ended, out) = drive(&r, game, &lines, Some(log_path.clone()));

    // The game ran to its end.
    assert!(!ended.quit, "{}", &out[out.len().saturating_sub(3000)..]);
    let outcome = ended.state.outcome().expect("the game is over");
    assert!(out.contains(&format!("Game over: {} wins", outcome.winner)));

    // Bad input is answered, never fatal, in lines that fit in 80
    // columns (a word longer than a line, such as a long path, stays
    // whole, and so does a command shown to be copied, `  watergate …`).
    for line in out.lines() {
        // A prompt shares its line with what follows: no answer is echoed.
        let mut line = line;
        while let Some(rest) = line.strip_prefix("Editor> ") {
            line = rest;
        }
        assert!(
            line.chars().count() <= 80
                || !line.trim().contains(' ')
                || line.starts_with("  watergate "),
            "{line}"
        );
    }
    // Messages are compared with their line breaks as spaces.
    let out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(out.contains("`garbage` is not one of the options"));
    assert!(
        out.contains("`an answer long enough that its refusal, which quotes it, run…` is not one of the options"),
        "{out}"
    );
    assert!(out.contains("There is no option 0: the options are numbered 1 to"));
    assert!(out.contains("There is no option 999"));
    assert!(out.contains("There is no option -3"));
    assert!(out.contains(&format!("`{nixon_card} value` is not one of the options")));
    assert!(
        out.contains("Not now: Editor must play a card from hand:")
            && out.contains("is a reaction card"),
        "own reaction card refused with the engine's reason"
    );
    assert!(out.contains("Commands:") && out.contains("save FILE"));
    assert!(
        out.contains(&format!(
            "Not saved: {} already exists. `save! {}` replaces it.",
            saved.display(),
            saved.display()
        )),
        "{out}"
    );
    assert_eq!(out.matches("Saved the position after ").count(), 2);
    // The help's example space is one of the board's own.
    let example = out
        .split("a board space such as `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("the help names a board space");
    assert!(
        r.board.spaces.iter().any(|s| s.id == example),
        "`{example}` is not a space of the board"
    );
    assert!(out.contains("Nothing to undo: this is the first decision."));
    assert!(out.contains("Undone: 1 choice taken back."));
    assert!(
        out.contains("Cannot undo: Nixon has decided since your last decision"),
        "undo never goes back past the agent's reply"
    );

    // The saved file is the position at that moment: the log's first n
    // choices lead to it (the undo came before the save).
    let n: usize = out
        .split("Saved the position after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the save is reported with its number of choices");
    let scn = Scenario::from_file(&saved).unwrap_or_else(|d| panic!("{d}"));
    let loaded_state = scn.start(&r).unwrap_or_else(|d| panic!("{d}"));
    let logged = log::read(&log_path).unwrap_or_else(|d| panic!("{d}"));
    let mut s = logged
        .start(&r, &mut watergate::game::engine::Quiet)
        .unwrap_or_else(|d| panic!("{d}"));
    for i in 0..n {
        logged
            .apply(&r, &mut s, i, &mut watergate::game::engine::Quiet)
            .unwrap_or_else(|d| panic!("{d}"));
    }
    assert_eq!(
        loaded_state, s,
        "the saved scenario is the position at `save`"
    );

    // The log is the game: it reads back equal and replays to the same end.
    assert_eq!(logged.log, ended.log);
    assert_eq!(logged.log.outcome, Some(outcome));
    assert_eq!(logged.log.players.editor, "human");
    assert_eq!(logged.log.players.nixon, "random");
    assert!(logged.fingerprint_warning(&r).is_none());
    let replayed = logged.replay(&r).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(replayed, ended.state);
}

#[test]
fn the_end_of_input_quits_cleanly_and_keeps_the_log() {
    let r = watergate::data::shipped();
    let dir = temp("eof");
    let log_path = dir.join("eof.log.ron");
    let game = Game::new(
        &r,
        11,
        Humans::One(Side::Nixon),
        &watergate::players::agent::AgentSpec::Random,
    );
    let lines: Vec<String> = vec!["1".into(), "\u{fffd}\u{0}nonsense".into(), "2".into()];
    let (ended, out) = drive(&r, game, &lines, Some(log_path.clone()));
    assert!(ended.quit);
    assert!(ended.state.outcome().is_none());
    assert!(out.contains("End of input."));
    let logged = log::read(&log_path).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(logged.log.outcome, None);
    assert_eq!(
        logged.replay(&r).unwrap_or_else(|d| panic!("{d}")),
        ended.state
    );
}

/// Plays a game between two random agents, logging it; the final state.
fn random_game(r: &Rules, log: &mut GameLog, mut s: State, seed: u64) -> State {
    let mut editor = RandomAgent::new(game_seed(seed, 1));
    let mut nixon = RandomAgent::new(game_seed(seed, 2));
    play_out(
        r,
        &mut s,
        BySide::new(&mut editor, &mut nixon),
        None,
        &mut OnChoice(|before: &State, _, c| log.record(r, before, c)),
    )
    .expect("legal choices apply");
    log.outcome = s.outcome();
    s
}

#[test]
fn logs_of_fifty_random_games_replay_to_the_same_end() {
    let r = watergate::data::shipped();
    let dir = temp("fifty-logs");
    for i in 0..50u64 {
        let seed = game_seed(2024, i);
        let mut log = GameLog::new_game(&r, seed, players("random", "random"));
        let end = random_game(&r, &mut log, State::new(&r, seed), seed);
        assert!(end.outcome().is_some());
        let path = dir.join(format!("random-{i}.log.ron"));
        log.write(&path).unwrap();
        let back = log::read(&path).unwrap_or_else(|d| panic!("{d}"));
        assert_eq!(back.log, log);
        let replayed = back.replay(&r).unwrap_or_else(|d| panic!("game {i}: {d}"));
        assert_eq!(replayed, end, "game {i} (seed {seed})");
    }
}

#[test]
fn logs_that_start_from_a_position_replay_to_the_same_end() {
    let r = watergate::data::shipped();
    for i in 0..10u64 {
        let seed = game_seed(77, i);
        // Some way into a game: the log must carry the whole position.
        let mut s = State::new(&r, seed);
        let mut agent = RandomAgent::new(seed);
        let mut left = 10 + 7 * i;
        let mut some_way = OnDecision(|_: &State, _, _: &[Choice]| {
            if left == 0 {
                return ControlFlow::Break(());
            }
            left -= 1;
            ControlFlow::Continue(())
        });
        play_out_alone(&r, &mut s, &mut agent, None, &mut some_way).unwrap();
        if s.is_over() {
            continue;
        }
        let mut log = GameLog::from_position(&r, &s, "midgame", players("random", "random"));
        let end = random_game(&r, &mut log, s, seed);
        let text = log.to_text();
        let back =
            log::from_text("mid.log.ron", &text, ".".into()).unwrap_or_else(|d| panic!("{d}"));
        assert_eq!(
            back.replay(&r).unwrap_or_else(|d| panic!("{d}\n{text}")),
            end
        );
    }
}

#[test]
fn a_bad_log_is_reported_with_the_choice_number_and_its_position() {
    let r = watergate::data::shipped();
    let seed = 5;
    let mut log = GameLog::new_game(&r, seed, players("random", "random"));
    random_game(&r, &mut log, State::new(&r, seed), seed);
    log.choices[6] = "no such choice".into();
    let text = log.to_text();
    let line = text
        .lines()
        .position(|l| l.contains("\"no such choice\""))
        .unwrap()
        + 1;
    let loaded = log::from_text("bad.log.ron", &text, ".".into()).unwrap();
    let err = loaded.replay(&r).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("bad.log.ron:{line}:"))
            && err.contains("choice 7: `no such choice`"),
        "{err}"
    );

    // A misspelt field: path:line:col from the RON parser.
    let broken = text.replacen("choices:", "choises:", 1);
    let err = log::from_text("broken.log.ron", &broken, ".".into())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("broken.log.ron:") && err.contains("choises"),
        "{err}"
    );

    // A log that ends differently from what it records.
    let mut short = GameLog::new_game(&r, seed, players("random", "random"));
    random_game(&r, &mut short, State::new(&r, seed), seed);
    short.choices.pop();
    let loaded = log::from_text("short.log.ron", &short.to_text(), ".".into()).unwrap();
    let err = loaded.replay(&r).unwrap_err().to_string();
    assert!(
        err.contains("the log records") && err.contains("unfinished"),
        "{err}"
    );

    // Other data: a warning, not an error.
    let mut other = log.clone();
    other.fingerprint = "0000000000000000".into();
    let loaded = log::from_text("other.log.ron", &other.to_text(), ".".into()).unwrap();
    assert!(loaded
        .fingerprint_warning(&r)
        .unwrap()
        .contains("other game data"));
}

/// The lines both hotseat players type for a game decided in advance, and
/// the screen each line answers: whose, and the state it shows. A play
/// that went unanswered while its player could not tell (R6) is followed
/// by a screen for the opponent, who passes, unless the opponent's own
/// decision comes next anyway (`session::Pause`).
struct Typed<'a> {
    r: &'a Rules,
    screens: Vec<(Side, State)>,
    lines: Vec<String>,
    /// The opponent owed a screen.
    pause: Option<Side>,
    /// How many such screens were given.
    pauses: usize,
}

impl Typed<'_> {
    fn screen(&mut self, side: Side, s: &State, line: String) {
        if self.screens.last().is_some_and(|(prev, _)| *prev != side) {
            self.lines.push(String::new()); // Enter: the other player takes over.
        }
        self.lines.push(line);
        self.screens.push((side, s.clone()));
    }
}

impl Observer for Typed<'_> {
    fn unanswered(&mut self, s: &State, play: &PlayFrame) {
        if s.could_be_answered(self.r, play) {
            self.pause = Some(play.player.other());
        }
    }
}

impl Steps for Typed<'_> {
    type Error = std::convert::Infallible;
    fn chosen(&mut self, s: &State, actor: Actor, c: Choice) -> Result<(), Self::Error> {
        let side = actor.side().unwrap();
        if let Some(to) = self.pause.take().filter(|to| *to != side) {
            self.screen(to, s, "pass".to_string());
            self.pauses += 1;
        }
        self.screen(side, s, format_choice(self.r, s, c));
        Ok(())
    }
}

/// Words that name an evidence colour.
const COLOURS: [&str; 3] = ["blue", "yellow", "green"];

#[test]
fn in_hotseat_the_editor_never_sees_a_face_down_track_token() {
    let r = watergate::data::shipped();
    let seed = 21;
    // The game both players will type, decided in advance by random agents,
    // with the states at each decision.
    let mut s = State::new(&r, seed);
    let (mut editor, mut nixon) = (RandomAgent::new(1), RandomAgent::new(2));
    let mut typed = Typed {
        r: &r,
        screens: Vec::new(),
        lines: Vec::new(),
        pause: None,
        pauses: 0,
    };
    play_out(
        &r,
        &mut s,
        BySide::new(&mut editor, &mut nixon),
        None,
        &mut typed,
    )
    .unwrap();
    let Typed {
        screens: decisions,
        lines,
        pauses,
        ..
    } = typed;
    assert!(
        pauses > 0,
        "the game has screens for a player with nothing to answer"
    );
    let game = Game::new(
        &r,
        seed,
        Humans::Both,
        &watergate::players::agent::AgentSpec::Random,
    );
    let (ended, out) = drive(&r, game, &lines, None);
    assert!(!ended.quit);
    assert_eq!(ended.state, s);
    // Everything printed fits in 80 columns, narration included (a prompt
    // shares its line with what follows only here, where no answer is
    // echoed: `Settings::echo` is off, as at a real terminal, which shows
    // the typed answer itself; `manners.rs` checks a piped game's lines).
    for line in out.lines() {
        let mut shown = line;
        while let Some(rest) = ["Editor> ", "Nixon> "]
            .iter()
            .find_map(|p| shown.strip_prefix(p))
        {
            shown = rest;
        }
        assert!(shown.chars().count() <= 80, "{line}");
    }

    // Cut the output into screens: each starts with its header and runs to
    // the next header or the next handover. Everything in it is for the eyes
    // of that header's player.
    let mut screens: Vec<(Side, Vec<&str>)> = Vec::new();
    let mut current: Option<usize> = None;
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("════ ") {
            let side = if rest.starts_with("Editor's view") {
                Side::Editor
            } else {
                assert!(rest.starts_with("Nixon's view"), "{line}");
                Side::Nixon
            };
            screens.push((side, Vec::new()));
            current = Some(screens.len() - 1);
        } else if line.starts_with("──── Pass the terminal") {
            current = None;
        } else if let Some(i) = current {
            screens[i].1.push(line);
        }
    }
    assert_eq!(screens.len(), decisions.len(), "one screen per decision");

    let mut hidden_seen = 0;
    let mut nixon_sees_hidden = 0;
    for ((side, text), (decider, state)) in screens.iter().zip(&decisions) {
        assert_eq!(side, decider);
        let face_down: Vec<usize> = state
            .track()
            .iter()
            .enumerate()
            .filter(|(_, t)| matches!(state.on_track(**t), Some((_, false))))
            .map(|(slot, _)| slot)
            .collect();
        for line in text {
            let names_colour = COLOURS.iter().any(|c| line.contains(c));
            // How Nixon's view marks a face-down track token.
            let marked_down = line.contains("(down)") || line.contains("(face down)");
            // Lines about face-down tokens. Tokens on the board are public
            // (R5.14: pinning face down, the spaces to choose), and asking
            // for a colour names the colour asked for and whether Nixon has
            // one (R5.6): those may name colours.
            // The board's legend names the slip colours' letters: no token.
            let about_hidden = (line.contains("face down") || line.contains("face-down"))
                && !line.contains("a space's letter is its slip")
                && !line.contains("space ")
                && !line.contains("ask")
                && !line.contains("has no face-down");
            if *side == Side::Editor {
                assert!(
                    !(marked_down || (about_hidden && names_colour)),
                    "the Editor's screen shows a face-down token's colour: {line}"
                );
            } else if marked_down && names_colour {
                nixon_sees_hidden += 1;
            }
        }
        if *side == Side::Editor {
            for slot in &face_down {
                let row = text
                    .iter()
                    .find(|l| l.starts_with(&format!("ev{slot} ")))
                    .expect("every track token has its row");
                assert!(row.starts_with(&format!("ev{slot} face down ")), "{row}");
                hidden_seen += 1;
            }
        }
    }
    // The check has teeth: the Editor met face-down tokens, and Nixon's
    // screens do show their colours.
    assert!(hidden_seen > 10, "{hidden_seen}");
    assert!(nixon_sees_hidden > 10, "{nixon_sees_hidden}");
}

/// Calls `look` at every decision of 40 random games (seeds 0 to 39) with
/// the position, the deciding side and the decision as the terminal asks it.
fn at_every_decision_of_forty_games(
    r: &Rules,
    mut look: impl FnMut(&State, Side, &watergate::game::engine::Decision),
) {
    for seed in 0..40 {
        let mut s = State::new(r, seed);
        let mut editor = RandomAgent::new(game_seed(seed, 1));
        let mut nixon = RandomAgent::new(game_seed(seed, 2));
        let mut every_screen = OnDecision(|s: &State, actor: Actor, options: &[Choice]| {
            let side = actor.side().expect("no chance decisions in play");
            let d = watergate::game::engine::Decision {
                actor,
                kind: s.decision_kind(r),
                options: options.to_vec(),
            };
            look(s, side, &d);
            ControlFlow::Continue(())
        });
        play_out(
            r,
            &mut s,
            BySide::new(&mut editor, &mut nixon),
            None,
            &mut every_screen,
        )
        .expect("legal choices apply");
    }
}

/// `play`: at every decision of 40 random games, every line of the
/// deciding player's screen, full or compact, fits in a terminal's 80
/// columns (without colour codes, which take no column): the track's rows
/// and legends, the lists of cards and pictures, the options.
#[test]
fn screens_fit_in_eighty_columns() {
    use watergate::formats::render::Style;
    let r = watergate::data::shipped();
    let mut widest = 0;
    let mut screens = 0;
    at_every_decision_of_forty_games(&r, |s, side, d| {
        for compact in [false, true] {
            let st = Style {
                colour: false,
                viewer: Some(side),
            };
            let text = terminal::screen(&r, s, &st, d, true, compact);
            screens += 1;
            for line in text.lines() {
                let width = line.chars().count();
                widest = widest.max(width);
                assert!(width <= 80, "{width} columns: {line}\n{text}");
            }
        }
    });
    // Real screens: the bound is met with content.
    assert!(screens > 1000 && widest > 70, "{screens} screens, {widest}");
}

/// `play --compact`: at every decision of 40 random games, the deciding
/// player's screen (board, hand, options) fits on 50 lines, in colour or
/// not, and names every informant in full (or in a legend).
#[test]
fn compact_screens_fit_on_fifty_lines() {
    use watergate::formats::render::Style;
    let r = watergate::data::shipped();
    let mut longest = 0;
    at_every_decision_of_forty_games(&r, |s, side, d| {
        for colour in [false, true] {
            let st = Style {
                colour,
                viewer: Some(side),
            };
            let text = terminal::screen(&r, s, &st, d, true, true);
            let lines = text.lines().count();
            longest = longest.max(lines);
            assert!(lines <= 50, "{lines} lines:\n{text}");
            for p in &r.pictures {
                assert!(text.contains(&p.name), "{} cut short:\n{text}", p.name);
            }
        }
    });
    // Real screens, not empty ones: the bound is met with content.
    assert!(longest > 30, "{longest}");
}

#[test]
fn a_card_name_a_little_off_is_answered_with_the_option_meant() {
    use watergate::game::engine::notation::parse_choice;
    let r = watergate::data::shipped();
    let s = State::new(&r, 3);
    let mut options = Vec::new();
    s.legal(&r, &mut options);
    let names: Vec<String> = options
        .iter()
        .map(|c| watergate::game::engine::notation::format_choice(&r, &s, *c))
        .collect();
    // The suggestion is an option's own name, which the prompt then takes.
    for (typed, meant) in [
        (
            "saturday_night_massacre action",
            "editor.the_saturday_night_massacre action",
        ),
        ("baldwin action", "editor.recruit_baldwin action"),
        ("recruit_deen value", "editor.recruit_dean value"),
        ("dean value", "editor.recruit_dean value"),
    ] {
        let e = parse_choice(&r, &s, typed, &options).unwrap_err();
        assert!(
            e.contains(&format!("(did you mean `{meant}`?)")),
            "{typed}: {e}"
        );
        assert!(
            names.iter().any(|n| n == meant),
            "{meant} is not an option: {names:?}"
        );
        assert!(parse_choice(&r, &s, meant, &options).is_ok());
    }
    // A card not among the options (of this side, or the other's), or
    // nothing like an option: no guess (a card's id anywhere was once
    // suggested, options or not).
    for typed in [
        "pentagon_papers action",
        "secure_woods action",
        "zzzzzzzzzzzz",
    ] {
        let e = parse_choice(&r, &s, typed, &options).unwrap_err();
        assert!(!e.contains("did you mean"), "{typed}: {e}");
    }
}

/// A pasted megabyte is refused at once (no guess is tried against it: its
/// edit distances took seconds) and quoted by its start, not echoed whole.
#[test]
fn a_pasted_megabyte_is_refused_quoted_by_its_start() {
    use watergate::game::engine::notation::parse_choice;
    let r = watergate::data::shipped();
    let s = State::new(&r, 3);
    let mut options = Vec::new();
    s.legal(&r, &mut options);
    let e = parse_choice(&r, &s, &"x".repeat(1 << 20), &options).unwrap_err();
    assert!(e.starts_with(&format!(
        "`{}…` is not one of the options: ",
        "x".repeat(60)
    )));
    assert!(e.len() < 4000, "{} bytes", e.len());
}

/// R6: a reaction prompt says what it would answer, the token a value play
/// moves and how far (or an action's text), for a player who does not know
/// every card. Seed 21, hotseat: the Editor recruits Dean, Nixon plays
/// Secure the support of Woods for its value on a blue token, and the
/// Editor, holding Follow the money!, is asked.
#[test]
fn a_reaction_prompt_says_what_the_play_would_do() {
    let r = watergate::data::shipped();
    let game = Game::new(
        &r,
        21,
        Humans::Both,
        &watergate::players::agent::AgentSpec::Random,
    );
    // Recruit Dean asks the Editor to move a token after it: the screen
    // goes to Nixon first (John Mitchell, which may answer it, is out of
    // sight), and he passes it back.
    let lines: Vec<String> = ["7", "", "pass", "", "1", "", "3", "ev1", "", "quit"]
        .iter()
        .map(|l| l.to_string())
        .collect();
    let (_, out) = drive(&r, game, &lines, None);
    let asked = out
        .find("Nixon plays Secure the support of Woods: react, or pass.\n")
        .unwrap_or_else(|| panic!("no reaction prompt: {out}"));
    assert!(
        out[asked..].contains(
            "react, or pass.\n  for its value: evidence ev1: blue at 0, 2 steps toward Nixon\n"
        ),
        "{}",
        &out[asked..]
    );
}

/// docs/formats/scenario.md, Notation: a card is named by its id, its short
/// id or its printed name, in choices as in positions.
#[test]
fn a_card_is_chosen_by_its_printed_name() {
    use watergate::game::engine::notation::parse_choice;
    let r = watergate::data::shipped();
    let s = State::new(&r, 3);
    let mut options = Vec::new();
    s.legal(&r, &mut options);
    for c in &options {
        let watergate::game::engine::Choice::Play { card, part } = *c else {
            continue;
        };
        let printed = format!("{}  {}", r.card(card).name.to_uppercase(), part.name());
        assert_eq!(
            parse_choice(&r, &s, &printed, &options),
            Ok(*c),
            "{printed}"
        );
    }
}

/// Hotseat, Nixon to play Gordon Liddy for its action (a conspirator's
/// action, which Mass demonstration may answer, R6) and then to choose the
/// face-up token it takes. The Editor's hand and deck are as given; the
/// cards listed nowhere are out of the game.
fn liddy_to_play(r: &Rules, editor: &str, editor_deck: &str, discard: &str) -> State {
    let text = format!(
        r#"Scenario(
    name: "Liddy to play",
    position: Some((
        round: 2,
        initiative: Nixon,
        turn: Some(Nixon),
        track: [
            (token: "blue", at: "0", face_up: true),
            (token: "yellow", at: "E1", face_up: true),
        ],
        hands: (editor: [{editor}], nixon: ["nixon.gordon_liddy", "nixon.secure_dean"]),
        decks: (editor: [{editor_deck}], nixon: []),
        discards: (editor: [{discard}], nixon: []),
        unlisted_cards: Removed,
        bag: Some(["green"]),
    )),
)"#
    );
    let scn = Scenario::from_text("liddy", &text, PathBuf::new()).unwrap_or_else(|d| panic!("{d}"));
    scn.start(r).unwrap_or_else(|d| panic!("{d}"))
}

/// What the player away from the screen can tell from it: the handovers
/// and whose screens come, in order.
fn handovers(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with("──── Pass the terminal") || l.starts_with("════ "))
        .collect()
}

/// Hotseat and R6: whether the Editor holds a card that may answer Nixon's
/// play is hers to know. Had she one, the screen would go to her at the
/// reaction window and back to Nixon; so when she has none, while he cannot
/// tell (Mass demonstration lies in her hand or her deck), the screen goes
/// to her all the same. When the card is in her discard pile, in sight, he
/// knows she cannot answer, and plays on.
#[test]
fn in_hotseat_the_handovers_do_not_tell_whether_a_reaction_card_is_held() {
    let r = watergate::data::shipped();
    let play = |state: State, lines: &[&str]| {
        let game = Game::from_state(
            &r,
            state,
            "liddy",
            1,
            Humans::Both,
            &watergate::players::agent::AgentSpec::Random,
        );
        let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let (ended, out) = drive(&r, game, &lines, None);
        assert!(ended.quit, "{out}");
        out
    };
    // Liddy, the Editor passes (at the window, or the pause), Liddy takes
    // the blue token, the Editor's turn.
    let through_the_editor = [
        "nixon.gordon_liddy action",
        "",
        "pass",
        "",
        "ev0",
        "",
        "quit",
    ];
    let held = play(
        liddy_to_play(
            &r,
            r#""editor.mass_demonstration", "editor.recruit_woods""#,
            r#""editor.the_smoking_gun_tape""#,
            "",
        ),
        &through_the_editor,
    );
    let in_deck = play(
        liddy_to_play(
            &r,
            r#""editor.the_smoking_gun_tape", "editor.recruit_woods""#,
            r#""editor.mass_demonstration""#,
            "",
        ),
        &through_the_editor,
    );
    let discarded = play(
        liddy_to_play(
            &r,
            r#""editor.the_smoking_gun_tape", "editor.recruit_woods""#,
            "",
            r#""editor.mass_demonstration""#,
        ),
        &["nixon.gordon_liddy action", "ev0", "", "quit"],
    );
    for out in [&held, &in_deck, &discarded] {
        assert!(
            out.contains("The blue token goes back into the bag."),
            "{out}"
        );
    }
    assert!(held.contains("react editor.mass_demonstration"), "{held}");
    assert!(
        in_deck.contains("You hold no card that may answer it."),
        "{in_deck}"
    );
    assert_eq!(handovers(&held), handovers(&in_deck));
    assert_eq!(
        handovers(&discarded),
        [
            "════ Nixon's view — round 2, card phase (only Nixon looks) ════",
            "════ Nixon's view — round 2, card phase (only Nixon looks) ════",
            "──── Pass the terminal to the Editor. Editor, press Enter when ready. ──── ",
            "════ Editor's view — round 2, card phase (only the Editor looks) ════",
        ]
    );
    assert_eq!(handovers(&held).len(), 7, "{held}");
}

/// The research track drawn for `viewer`: every line fits in 80 columns and
/// each token's marker stands under the name of its space (R1.3), on the
/// shipped track and on a house rule's longest (10 spaces a side), whatever
/// the length of the labels (a face-down token the Editor knows is not
/// blue nor yellow has a long one).
#[test]
fn track_markers_stand_under_their_spaces_on_any_track_length() {
    use watergate::data::{self, DataSet};
    use watergate::formats::render::{self, Style};
    use watergate::game::engine::notation::pos_name;
    let mut ds = DataSet::embedded();
    let game = String::from_utf8(ds.files["cards/game.ron"].clone()).unwrap();
    let game = game.replace("track_length: 5,", "track_length: 10,");
    ds.files.insert("cards/game.ron".into(), game.into_bytes());
    let long = data::load(&ds).expect("a track of 10 spaces a side loads");
    let mut longest_label = 0;
    for r in [watergate::data::shipped(), long] {
        let len = r.numbers.track_length;
        at_every_decision_of_forty_games(&r, |s, side, _| {
            let text = render::track(&r, s, &Style::plain(Some(side)));
            let lines: Vec<&str> = text.lines().collect();
            for line in &lines {
                assert!(line.chars().count() <= 80, "{line}\n{text}");
            }
            // The centre column of each space's name in the header: its
            // words, one a space from Nixon's end (`N5*` … `0` … `E5*`,
            // or the numbers alone on a long track).
            let mut words: Vec<(String, f32)> = Vec::new();
            let mut start = None;
            for (i, c) in lines[0].chars().chain([' ']).enumerate() {
                match (c == ' ', start) {
                    (false, None) => start = Some(i),
                    (true, Some(b)) => {
                        let word: String = lines[0].chars().skip(b).take(i - b).collect();
                        words.push((word, (b + i - 1) as f32 / 2.0));
                        start = None;
                    }
                    _ => {}
                }
            }
            assert_eq!(words.len(), (2 * len + 1) as usize, "{text}");
            let centre = |p: i8| {
                let (word, at) = &words[(p + len) as usize];
                let word = word.trim_end_matches('*');
                assert!(
                    *word == pos_name(p) || *word == p.abs().to_string(),
                    "`{word}` names {}\n{text}",
                    pos_name(p)
                );
                *at
            };
            let mut rows = vec![("initiative".to_string(), s.initiative_token())];
            rows.push(("momentum".to_string(), s.momentum_token()));
            for (slot, t) in s.track().iter().enumerate() {
                rows.push((format!("ev{slot} "), s.on_track(*t).map(|(p, _)| p)));
            }
            for (label, pos) in rows {
                let Some(pos) = pos else { continue };
                let at = lines
                    .iter()
                    .position(|l| l.starts_with(&label))
                    .unwrap_or_else(|| panic!("no row {label}\n{text}"));
                longest_label = longest_label.max(lines[at].split("  ").next().unwrap().len());
                // The markers are on the label's line or, for a label too
                // long for the room, on the next.
                let markers = [lines[at], lines.get(at + 1).copied().unwrap_or("")]
                    .into_iter()
                    .find(|l| l.contains(['●', '■']))
                    .unwrap_or_else(|| panic!("no marker for {label}\n{text}"));
                // ● face up, ■ face down, as the board's legend says.
                let marker = markers.chars().position(|c| c == '●' || c == '■').unwrap() as f32;
                let (min, max) = (-len, len);
                assert!((min..=max).contains(&pos));
                assert!(
                    (marker - centre(pos)).abs() <= 1.0,
                    "{label} at {}: marker at column {marker}\n{text}",
                    pos_name(pos)
                );
            }
        });
    }
    assert!(longest_label > 20, "{longest_label}");
}
