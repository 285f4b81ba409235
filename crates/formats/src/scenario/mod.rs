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
use crate::game::engine::event::Event;
use crate::game::engine::notation::parse_choice;
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
    fn walk(&self, r: &Rules, s: &mut State, check: bool) -> Result<Diagnostics, PlayStop> {
        let mut pr = self.problems();
        let mut failed = Diagnostics::default();
        let mut events = Vec::new();
        for (i, text) in self.def.play.iter().enumerate() {
            self.play_one(r, s, text, &format!("play[{i}]"), &mut events, &mut pr)?;
        }
        for (i, step) in self.def.steps.iter().enumerate() {
            match step {
                StepDef::Play(text) => {
                    self.play_one(r, s, text, &format!("steps[{i}]"), &mut events, &mut pr)?
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
                        &events,
                        &mut here,
                    );
                    failed.0.extend(here.diags.0);
                    events.clear();
                }
                StepDef::Expect(_) => {}
            }
        }
        self.check_puzzle(r, s)?;
        if check {
            if let Some(e) = &self.def.expect {
                let mut here = self.problems();
                expect::check(r, s, e, expect::Here::EXPECT, &events, &mut here);
                failed.0.extend(here.diags.0);
            }
        }
        Ok(failed.sorted())
    }

    /// A puzzle's claim must be one the solver and an attempt can read: a
    /// horizon of at least one decision, and a recorded solution whose
    /// every choice is an option where it stands, played from the puzzle's
    /// start (`s`, after the scenario's choices) with chance as decisions,
    /// as an attempt plays it. Only the choices are checked: whether the
    /// line wins is `watergate solve`'s question.
    fn check_puzzle(&self, r: &Rules, s: &State) -> Result<(), PlayStop> {
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
        let mut line = s.clone();
        line.set_explicit_chance(true);
        let mut events = Vec::new();
        for (i, text) in p.solution.iter().enumerate() {
            let at = format!("puzzle.solution[{i}]");
            match self.play_one(r, &mut line, text, &at, &mut events, &mut pr) {
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

    fn play_one(
        &self,
        r: &Rules,
        s: &mut State,
        text: &str,
        path: &str,
        events: &mut Vec<Event>,
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
        match s.apply_observed(r, choice, events) {
            Ok(()) => Ok(()),
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
            .map_err(|stop| self.stop_diagnostics(stop))
    }

    /// As [`Scenario::play_and_check`], with a failing card script told
    /// apart from a problem in the file (see [`Scenario::play_choices`]).
    pub fn play_and_check_choices(
        &self,
        r: &Rules,
        s: &mut State,
    ) -> Result<Diagnostics, PlayStop> {
        self.walk(r, s, true)
    }

    /// Loads, plays and checks: the state reached and the failed expectations.
    pub fn run(&self, r: &Rules) -> Result<(State, Diagnostics), Diagnostics> {
        let mut s = self.start(r)?;
        let failures = self.play_and_check(r, &mut s)?;
        Ok((s, failures))
    }
}
