//! Scenarios: positions from files, choices to play on them, and
//! expectations to check, so designers set up situations, puzzle makers
//! publish puzzles, and tests are written as data.

pub mod events;
pub mod expect;
pub mod format;
pub mod load;
pub mod save;

use crate::data::srcmap::SourceMap;
use crate::data::{self, DataSet, GameSource};
use crate::diag::Diagnostics;
use crate::game::engine::event::{Event, Observer};
use crate::game::engine::notation::{outcome_name, parse_choice};
use crate::game::engine::{Actor, Choice};
use crate::game::rules::Rules;
use crate::game::state::State;
use format::{ScenarioDef, StepDef};
use load::Problems;
use std::path::{Path, PathBuf};

/// What a decision is about, in words (for error messages).
pub fn describe_kind(r: &Rules, k: &crate::game::engine::DecisionKind) -> String {
    use crate::game::engine::DecisionKind as K;
    match k {
        K::PlayCard => "which card to play, and which part".into(),
        K::ChoosePart { card } => format!("which part of {} to use", r.card(*card).name),
        K::ValueTarget { card } => format!("which token {}'s value moves", r.card(*card).name),
        K::Reveal { colour } => format!("which face-down {colour} token to reveal"),
        K::LockedTarget { colour, .. } => {
            format!("which token to move now that {colour} is locked")
        }
        K::Reaction { against } => format!("whether to react to {}", r.card(*against).name),
        K::Pin { .. } => "where to pin the evidence token".into(),
        K::Action { card, ask } => match card {
            Some(c) => format!("{}: {}", r.card(*c).name, crate::game::wording::ask(ask)),
            None => crate::game::wording::ask(ask),
        },
        K::Chance { what, .. } => crate::game::wording::chance(*what).into(),
    }
}

/// A decision with one option, which the engine took on its own (the
/// advance loop takes it): a scenario does not write it, in `play`,
/// `steps` or a puzzle's solution.
#[derive(Clone, Debug)]
pub struct Forced {
    /// The state just before it.
    pub before: State,
    pub actor: Actor,
    pub choice: Choice,
}

impl Forced {
    /// The move as a line of play shows it, marked:
    /// `(forced) Editor: editor.ben_bradlee value`.
    pub fn line(&self, r: &Rules) -> String {
        let who = match self.actor {
            Actor::Player(side) => side.name(),
            Actor::Chance => "chance",
        };
        format!(
            "(forced) {who}: {}",
            outcome_name(r, &self.before, self.choice)
        )
    }

    /// Whether `text` names this move.
    fn named_by(&self, r: &Rules, text: &str) -> bool {
        parse_choice(r, &self.before, text, &[self.choice]).is_ok()
    }

    /// Why `text`, which names this move, is refused where it is written
    /// (`list`: `play`, `steps`, `puzzle.solution`).
    fn refusal(&self, text: &str, list: &str) -> String {
        let text = text.trim();
        let taken = match self.actor {
            Actor::Player(crate::game::model::Side::Editor) => {
                "was the Editor's only option and was played for her"
            }
            Actor::Player(crate::game::model::Side::Nixon) => {
                "was Nixon's only option and was played for him"
            }
            Actor::Chance => "was chance's only outcome and was taken",
        };
        format!("`{text}` {taken}; forced moves are not written in `{list}:`")
    }
}

/// Hears the events of a choice and the forced moves it led to.
pub struct Heard<'a> {
    pub events: &'a mut Vec<Event>,
    pub forced: Vec<Forced>,
}

impl Observer for Heard<'_> {
    fn event(&mut self, e: Event) {
        self.events.push(e);
    }

    fn forced(&mut self, s: &State, actor: Actor, choice: Choice) {
        self.forced.push(Forced {
            before: s.clone(),
            actor,
            choice,
        });
    }
}

/// What playing a scenario's choices left behind: the events since the
/// last expectation, the forced moves after the last choice, and the
/// choices played with the forced moves between them.
#[derive(Default)]
struct Trail {
    events: Vec<Event>,
    /// The forced moves after the last choice played; `None` before the
    /// first (those of the start are found again when needed).
    forced: Option<Vec<Forced>>,
    /// Each choice as written, each forced move as [`Forced::line`].
    played: Vec<String>,
}

/// Why a scenario's choices stopped before the end.
#[derive(Clone, Debug)]
pub enum PlayStop {
    /// A choice that is not an option (or comes after the end): a problem
    /// in the scenario file.
    Input(Diagnostics),
    /// A card script failed while the choice `choice`, at `at` in the file
    /// (`play[2]`, `steps[4]`), was carried out.
    Script {
        at: String,
        choice: String,
        error: Box<crate::game::engine::ScriptError>,
    },
}

/// A parsed scenario file.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub def: ScenarioDef,
    /// The path as shown to the user.
    pub display: String,
    /// The folder relative paths in the file are resolved against.
    pub dir: PathBuf,
    pub map: SourceMap,
}

impl Scenario {
    pub fn from_file(path: &Path) -> Result<Scenario, Diagnostics> {
        let display = path.display().to_string();
        let text = data::read_text_file(path, "a UTF-8 RON scenario file")?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Scenario::from_text(&display, &text, dir)
    }

    pub fn from_text(display: &str, text: &str, dir: PathBuf) -> Result<Scenario, Diagnostics> {
        let def = data::parse_ron_all::<ScenarioDef>(display, text).map_err(|mut ds| {
            for d in ds.0.iter_mut() {
                if d.message.contains("found `GameLog`") {
                    // The likeliest mix-up: a log where a position is wanted.
                    d.message = format!(
                        "this is a game log, not a scenario: `watergate replay {display}` replays it (a position saved with `save` in `play` is a scenario)"
                    );
                }
            }
            ds
        })?;
        Ok(Scenario {
            def,
            display: display.to_string(),
            dir,
            map: SourceMap::build(text),
        })
    }

    fn problems(&self) -> Problems<'_> {
        Problems {
            display: &self.display,
            map: &self.map,
            diags: Diagnostics::default(),
            rename: None,
        }
    }

    /// The rules the scenario plays with, built in the order of
    /// [`save::RulesOrigin::of`], the one statement of where a game comes
    /// from: the base data is the command line's `--data`, else the
    /// scenario's own `data:`, else the shipped data (both naming different
    /// folders is an error, never a silent choice); then the variants apply,
    /// the command line's `--variant` first, then the scenario's `variant:`
    /// (most specific last); then the scenario's `edits`.
    pub fn rules(&self, cmdline: &GameSource) -> Result<Rules, Diagnostics> {
        self.check_one_data_root(cmdline)?;
        let origin = save::RulesOrigin::of(cmdline, Some(self));
        let mut ds = match &origin.data {
            None => DataSet::embedded(),
            Some(save::Source {
                path,
                in_scenario: None,
            }) => DataSet::from_dir(path)?,
            Some(save::Source {
                path,
                in_scenario: Some(d),
            }) => DataSet::from_dir(path).map_err(|problems| {
                let mut pr = self.problems();
                for p in problems.iter() {
                    pr.at(
                        "data",
                        format!("data root `{d}` (relative to this file): {}", p.message),
                    );
                }
                pr.diags
            })?,
        };
        for v in &origin.variants {
            if let Some(rel) = &v.in_scenario {
                if !data::data_file_exists(&v.path) {
                    let mut pr = self.problems();
                    pr.at(
                        "variant",
                        format!("no variant file `{rel}` (relative to this file)"),
                    );
                    return Err(pr.diags);
                }
            }
            ds = crate::data::variant::Variant::from_file(&v.path)?.apply(&ds)?;
        }
        self.rules_with_edits(&ds)
    }

    /// The command line's `--data` and the scenario's `data:` may both be
    /// given only when they name the same folder.
    fn check_one_data_root(&self, cmdline: &GameSource) -> Result<(), Diagnostics> {
        let (Some(given), Some(d)) = (&cmdline.data, &self.def.data) else {
            return Ok(());
        };
        let own = self.dir.join(d);
        let same = match (given.canonicalize(), own.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => *given == own,
        };
        if same {
            return Ok(());
        }
        let mut pr = self.problems();
        pr.at(
            "data",
            format!(
                "this scenario plays on data `{d}` (relative to this file) but the command line gives `--data {}`: give one of them, or the same folder",
                given.display()
            ),
        );
        Err(pr.diags)
    }

    /// Every choice the scenario plays, in order: `play`, then the `Play` steps.
    pub fn choices(&self) -> Vec<String> {
        let steps = self.def.steps.iter().filter_map(|st| match st {
            StepDef::Play(c) => Some(c.clone()),
            StepDef::Expect(_) => None,
        });
        self.def.play.iter().cloned().chain(steps).collect()
    }

    /// Whether the scenario plays with other rules than the built-in ones
    /// (its own data, a variant, or inline edits).
    pub fn has_own_rules(&self) -> bool {
        self.def.data.is_some() || self.def.variant.is_some() || self.def.edits.is_some()
    }

    /// The last layer of the data: the scenario's inline `edits`, applied
    /// to `ds` (the data with every variant already applied) by the
    /// variant code, with problems reported at the edits in this file.
    pub fn with_edits(&self, ds: &DataSet) -> Result<DataSet, Diagnostics> {
        match self.edits_variant() {
            None => Ok(ds.clone()),
            Some(v) => v.apply(ds),
        }
    }

    /// The scenario's inline `edits` as the variant that applies them
    /// (relative paths against this file's folder), if it has any.
    pub fn edits_variant(&self) -> Option<crate::data::variant::Variant> {
        let edits = self.def.edits.as_ref()?;
        // One name wherever the edits are written (a scenario file, a game
        // log's start): the game's name, and with it the fingerprint a log
        // is checked by, does not depend on the file's name.
        Some(crate::data::variant::Variant::embedded(
            edits.as_variant("a scenario's edits"),
            &self.display,
            self.dir.clone(),
            self.map.subtree("edits"),
        ))
    }

    /// The rules from `ds` with the scenario's inline edits applied.
    pub fn rules_with_edits(&self, ds: &DataSet) -> Result<Rules, Diagnostics> {
        match &self.def.edits {
            None => data::load(ds),
            Some(_) => data::load(&self.with_edits(ds)?),
        }
    }

    /// The goal a player is set, if the scenario is a puzzle.
    pub fn goal(&self) -> Option<String> {
        let p = self.def.puzzle.as_ref()?;
        let g = if p.goal.is_empty() {
            &self.def.description
        } else {
            &p.goal
        };
        Some(if g.is_empty() {
            format!("{} to play and win this round.", p.side)
        } else {
            g.clone()
        })
    }

    /// The starting state: a new game, or the position.
    pub fn start(&self, r: &Rules) -> Result<State, Diagnostics> {
        let mut pr = self.problems();
        match load::initial_state(r, &self.def, &mut pr) {
            Some(s) if pr.diags.is_empty() => Ok(s),
            _ => Err(pr.diags),
        }
    }

    /// Plays the scenario's choices from `s` (`play`, then the `Play`
    /// steps); stops at the first choice that is not an option, with a
    /// diagnostic at that choice. Expectations are not checked.
    pub fn play(&self, r: &Rules, s: &mut State) -> Result<(), Diagnostics> {
        self.play_choices(r, s)
            .map_err(|stop| self.stop_diagnostics(stop))
    }

    /// As [`Scenario::play`], but a card script failing at run time is told
    /// apart from a problem in the file: the script is to blame, and `s` is
    /// left as it was before that choice.
    pub fn play_choices(&self, r: &Rules, s: &mut State) -> Result<(), PlayStop> {
        self.walk(r, s, false).map(|_| ())
    }

    /// A stop as a problem in the file, at the choice that stopped.
    fn stop_diagnostics(&self, stop: PlayStop) -> Diagnostics {
        match stop {
            PlayStop::Input(d) => d,
            PlayStop::Script { at, choice, error } => {
                let mut pr = self.problems();
                pr.at(&at, format!("`{choice}`: {error}"));
                pr.diags
            }
        }
    }

    /// Plays every choice and checks every expectation on the way: the
    /// failed expectations, or the choice that could not be played.
    fn walk(
        &self,
        r: &Rules,
        s: &mut State,
        check: bool,
    ) -> Result<(Diagnostics, Vec<String>), PlayStop> {
        let mut pr = self.problems();
        let mut failed = Diagnostics::default();
        let mut trail = Trail::default();
        for (i, text) in self.def.play.iter().enumerate() {
            self.play_one(r, s, text, &format!("play[{i}]"), &mut trail, &mut pr)?;
        }
        for (i, step) in self.def.steps.iter().enumerate() {
            match step {
                StepDef::Play(text) => {
                    self.play_one(r, s, text, &format!("steps[{i}]"), &mut trail, &mut pr)?
                }
                StepDef::Expect(e) if check => {
                    let mut here = self.problems();
                    expect::check(
                        r,
                        s,
                        e,
                        expect::Here {
                            at: &format!("steps[{i}][0]"),
                            name: &format!("steps[{i}]"),
                        },
                        &trail.events,
                        &mut here,
                    );
                    failed.0.extend(here.diags.0);
                    trail.events.clear();
                }
                StepDef::Expect(_) => {}
            }
        }
        self.check_puzzle(r, s, &trail)?;
        if check {
            if let Some(e) = &self.def.expect {
                let mut here = self.problems();
                expect::check(r, s, e, expect::Here::EXPECT, &trail.events, &mut here);
                failed.0.extend(here.diags.0);
            }
        }
        Ok((failed.sorted(), trail.played))
    }

    /// The forced moves the engine took on its own from the position (or
    /// the new game) to the first decision: those of [`Scenario::start`].
    fn start_forced(&self, r: &Rules) -> Vec<Forced> {
        let mut pr = self.problems();
        let mut events = Vec::new();
        let mut heard = Heard {
            events: &mut events,
            forced: Vec::new(),
        };
        load::initial_state_observed(r, &self.def, &mut pr, &mut heard);
        heard.forced
    }

    /// A puzzle's claim must be one the solver and an attempt can read: a
    /// horizon of at least one decision, and a recorded solution whose
    /// every choice is an option where it stands, played from the puzzle's
    /// start (`s`, after the scenario's choices) with chance as decisions,
    /// as an attempt plays it. Only the choices are checked: whether the
    /// line wins is `watergate solve`'s question.
    fn check_puzzle(&self, r: &Rules, s: &State, trail: &Trail) -> Result<(), PlayStop> {
        let Some(p) = &self.def.puzzle else {
            return Ok(());
        };
        let mut pr = self.problems();
        if p.depth == Some(0) {
            pr.at(
                "puzzle.depth",
                "expected at least 1 decision (leave `depth` out for the rest of the round)",
            );
            return Err(PlayStop::Input(pr.diags));
        }
        // `side` is the side to move where the puzzle starts: the solver
        // plays the other side, and would win at once for it.
        if let Some(Actor::Player(to_move)) = s.to_move(r) {
            if to_move != p.side {
                pr.at(
                    "puzzle.side",
                    format!(
                        "puzzle.side is {} but {to_move} is to move{}",
                        p.side,
                        if self.def.play.is_empty() && !self.has_play_steps() {
                            ""
                        } else {
                            " (after the scenario's choices, where the puzzle starts)"
                        }
                    ),
                );
                return Err(PlayStop::Input(pr.diags));
            }
        }
        let mut line = s.clone();
        line.set_explicit_chance(true);
        // The solution goes on from the scenario's last choice: a forced
        // move just after it is told as such.
        let mut on = Trail {
            forced: trail.forced.clone(),
            ..Trail::default()
        };
        for (i, text) in p.solution.iter().enumerate() {
            let at = format!("puzzle.solution[{i}]");
            match self.play_one(r, &mut line, text, &at, &mut on, &mut pr) {
                Ok(()) => {}
                Err(PlayStop::Input(mut d)) => {
                    for d in d.0.iter_mut() {
                        d.message = format!("the recorded solution: {}", d.message);
                    }
                    return Err(PlayStop::Input(d));
                }
                Err(stop) => return Err(stop),
            }
        }
        Ok(())
    }

    /// Whether `steps` plays any choice.
    fn has_play_steps(&self) -> bool {
        self.def
            .steps
            .iter()
            .any(|st| matches!(st, StepDef::Play(_)))
    }

    fn play_one(
        &self,
        r: &Rules,
        s: &mut State,
        text: &str,
        path: &str,
        trail: &mut Trail,
        pr: &mut Problems,
    ) -> Result<(), PlayStop> {
        let mut options = Vec::new();
        if s.legal(r, &mut options).is_none() {
            pr.at(path, format!("`{text}`: the game is already over"));
            return Err(PlayStop::Input(std::mem::take(&mut pr.diags)));
        }
        let choice = match parse_choice(r, s, text, &options) {
            Ok(c) => c,
            Err(e) => {
                // A move the engine just took on its own, written all the
                // same: said so, not "not one of the options".
                let forced = match &trail.forced {
                    Some(f) => f.clone(),
                    None => self.start_forced(r),
                };
                if let Some(f) = forced.iter().find(|f| f.named_by(r, text)) {
                    let list = path.split('[').next().unwrap_or(path);
                    pr.at(path, f.refusal(text, list));
                    return Err(PlayStop::Input(std::mem::take(&mut pr.diags)));
                }
                let who = match s.to_move(r) {
                    Some(crate::game::engine::Actor::Player(p)) => format!("{p} to decide"),
                    _ => "chance".to_string(),
                };
                pr.at(
                    path,
                    format!("{e} ({who}: {})", describe_kind(r, &s.decision_kind(r))),
                );
                return Err(PlayStop::Input(std::mem::take(&mut pr.diags)));
            }
        };
        let mut heard = Heard {
            events: &mut trail.events,
            forced: Vec::new(),
        };
        let applied = s.apply_observed(r, choice, &mut heard);
        let forced = heard.forced;
        match applied {
            Ok(()) => {
                trail.played.push(text.trim().to_string());
                trail.played.extend(forced.iter().map(|f| f.line(r)));
                trail.forced = Some(forced);
                Ok(())
            }
            Err(crate::game::engine::PlayError::Script(error)) => Err(PlayStop::Script {
                at: path.to_string(),
                choice: text.to_string(),
                error,
            }),
            Err(e) => {
                pr.at(path, format!("`{text}`: {e}"));
                Err(PlayStop::Input(std::mem::take(&mut pr.diags)))
            }
        }
    }

    /// Plays the choices from `s` and checks the expectations: the failed
    /// ones (or the choice that could not be played).
    pub fn play_and_check(&self, r: &Rules, s: &mut State) -> Result<Diagnostics, Diagnostics> {
        self.walk(r, s, true)
            .map(|(failed, _)| failed)
            .map_err(|stop| self.stop_diagnostics(stop))
    }

    /// As [`Scenario::play_and_check`], with a failing card script told
    /// apart from a problem in the file (see [`Scenario::play_choices`]).
    pub fn play_and_check_choices(
        &self,
        r: &Rules,
        s: &mut State,
    ) -> Result<Diagnostics, PlayStop> {
        self.walk(r, s, true).map(|(failed, _)| failed)
    }

    /// As [`Scenario::play_and_check_choices`], from the scenario's start
    /// (`s`, as [`Scenario::start`] made it), with what was played: each
    /// choice as written and, marked, the forced moves the engine took on
    /// its own ([`Forced::line`]), those before the first choice included.
    pub fn play_and_check_played(
        &self,
        r: &Rules,
        s: &mut State,
    ) -> Result<(Diagnostics, Vec<String>), PlayStop> {
        let (failed, played) = self.walk(r, s, true)?;
        let mut all: Vec<String> = self.start_forced(r).iter().map(|f| f.line(r)).collect();
        all.extend(played);
        Ok((failed, all))
    }

    /// Loads, plays and checks: the state reached and the failed expectations.
    pub fn run(&self, r: &Rules) -> Result<(State, Diagnostics), Diagnostics> {
        let mut s = self.start(r)?;
        let failures = self.play_and_check(r, &mut s)?;
        Ok((s, failures))
    }
}
