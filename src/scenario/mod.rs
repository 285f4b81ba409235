//! Scenarios: positions from files, choices to play on them, and
//! expectations to check, so designers set up situations, puzzle makers
//! publish puzzles, and tests are written as data.

pub mod expect;
pub mod format;
pub mod load;
pub mod save;

use crate::data::srcmap::SourceMap;
use crate::data::{self, DataSet, GameSource};
use crate::diag::Diagnostics;
use crate::engine::notation::parse_choice;
use crate::rules::Rules;
use crate::state::State;
use format::ScenarioDef;
use load::Problems;
use std::path::{Path, PathBuf};

/// What a decision is about, in words (for error messages).
pub fn describe_kind(r: &Rules, k: &crate::engine::DecisionKind) -> String {
    use crate::engine::DecisionKind as K;
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
        K::Action { card, prompt } => match card {
            Some(c) => format!("{}: {prompt}", r.card(*c).name),
            None => prompt.clone(),
        },
        K::Chance { what, .. } => what.clone(),
    }
}

/// Why a scenario's choices stopped before the end.
#[derive(Clone, Debug)]
pub enum PlayStop {
    /// A choice that is not an option (or comes after the end): a problem
    /// in the scenario file.
    Input(Diagnostics),
    /// A card script failed while `play[index]` was carried out.
    Script {
        index: usize,
        error: crate::engine::ScriptError,
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
        let def =
            data::parse_ron::<ScenarioDef>(display, text).map_err(|d| Diagnostics(vec![d]))?;
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
        }
    }

    /// The rules the scenario plays with, by the one rule for where the game
    /// comes from: the base data is the command line's `--data`, else the
    /// scenario's own `data:`, else the shipped data (both naming different
    /// folders is an error, never a silent choice); then the variants apply,
    /// the command line's `--variant` first, then the scenario's `variant:`
    /// (most specific last).
    pub fn rules(&self, cmdline: &GameSource) -> Result<Rules, Diagnostics> {
        let own_data = self.def.data.as_ref().map(|d| (d, self.dir.join(d)));
        let base = match (&cmdline.data, &own_data) {
            (Some(given), Some((d, own))) => {
                let same = match (given.canonicalize(), own.canonicalize()) {
                    (Ok(a), Ok(b)) => a == b,
                    _ => given == own,
                };
                if !same {
                    let mut pr = self.problems();
                    pr.at(
                        "data",
                        format!(
                            "this scenario plays on data `{d}` (relative to this file) but the command line gives `--data {}`: give one of them, or the same folder",
                            given.display()
                        ),
                    );
                    return Err(pr.diags);
                }
                cmdline.base()?
            }
            (Some(_), None) | (None, None) => cmdline.base()?,
            (None, Some((d, own))) => DataSet::from_dir(own).map_err(|problems| {
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
        let mut ds = match cmdline.variant()? {
            None => base,
            Some(v) => v.apply(&base)?,
        };
        if let Some(v) = &self.def.variant {
            let path = self.dir.join(v);
            if !path.is_file() {
                let mut pr = self.problems();
                pr.at(
                    "variant",
                    format!("no variant file `{v}` (relative to this file)"),
                );
                return Err(pr.diags);
            }
            ds = crate::variant::Variant::from_file(&path)?.apply(&ds)?;
        }
        data::load(&ds)
    }

    /// The starting state: a new game, or the position.
    pub fn start(&self, r: &Rules) -> Result<State, Diagnostics> {
        let mut pr = self.problems();
        match load::initial_state(r, &self.def, &mut pr) {
            Some(s) if pr.diags.is_empty() => Ok(s),
            _ => Err(pr.diags),
        }
    }

    /// Plays the scenario's choices from `s`; stops at the first choice
    /// that is not an option, with a diagnostic at that choice.
    pub fn play(&self, r: &Rules, s: &mut State) -> Result<(), Diagnostics> {
        self.play_choices(r, s).map_err(|stop| match stop {
            PlayStop::Input(d) => d,
            PlayStop::Script { index, error } => {
                let mut pr = self.problems();
                pr.at(
                    &format!("play[{index}]"),
                    format!("`{}`: {error}", self.def.play[index]),
                );
                pr.diags
            }
        })
    }

    /// As [`Scenario::play`], but a card script failing at run time is told
    /// apart from a problem in the file: the script is to blame, and `s` is
    /// left as it was before that choice.
    pub fn play_choices(&self, r: &Rules, s: &mut State) -> Result<(), PlayStop> {
        let mut pr = self.problems();
        let mut options = Vec::new();
        for (i, text) in self.def.play.iter().enumerate() {
            let path = format!("play[{i}]");
            if s.legal(r, &mut options).is_none() {
                pr.at(&path, format!("`{text}`: the game is already over"));
                return Err(PlayStop::Input(pr.diags));
            }
            let choice = match parse_choice(r, s, text, &options) {
                Ok(c) => c,
                Err(e) => {
                    let who = match s.to_move(r) {
                        Some(crate::engine::Actor::Player(p)) => format!("{p} to decide"),
                        _ => "chance".to_string(),
                    };
                    pr.at(
                        &path,
                        format!("{e} ({who}: {})", describe_kind(r, &s.decision_kind(r))),
                    );
                    return Err(PlayStop::Input(pr.diags));
                }
            };
            match s.apply(r, choice) {
                Ok(()) => {}
                Err(crate::engine::PlayError::Script(error)) => {
                    return Err(PlayStop::Script { index: i, error })
                }
                Err(e) => {
                    pr.at(&path, format!("`{text}`: {e}"));
                    return Err(PlayStop::Input(pr.diags));
                }
            }
        }
        Ok(())
    }

    /// The failed expectations, if any.
    pub fn check(&self, r: &Rules, s: &State) -> Diagnostics {
        let mut pr = self.problems();
        if let Some(e) = &self.def.expect {
            expect::check(r, s, e, &mut pr);
        }
        pr.diags.sorted()
    }

    /// Loads, plays and checks: the state reached and the failed expectations.
    pub fn run(&self, r: &Rules) -> Result<(State, Diagnostics), Diagnostics> {
        let mut s = self.start(r)?;
        self.play(r, &mut s)?;
        let failures = self.check(r, &s);
        Ok((s, failures))
    }
}
