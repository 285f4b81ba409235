//! Scenarios: positions from files, choices to play on them, and
//! expectations to check, so designers set up situations, puzzle makers
//! publish puzzles, and tests are written as data.

pub mod expect;
pub mod format;
pub mod load;
pub mod save;

use crate::data::srcmap::SourceMap;
use crate::data::{self, DataSet};
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
        K::Action { card, ask } => match card {
            Some(c) => format!("{}: {}", r.card(*c).name, crate::wording::ask(ask)),
            None => crate::wording::ask(ask),
        },
        K::Chance { what, .. } => what.clone(),
    }
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

    /// The rules the scenario plays with: the built-in data, or its own.
    pub fn rules(&self) -> Result<Rules, Diagnostics> {
        let ds = match &self.def.data {
            None => DataSet::embedded(),
            Some(d) => DataSet::from_dir(&self.dir.join(d)).map_err(|problems| {
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
        match &self.def.variant {
            None => data::load(&ds),
            Some(v) => {
                let path = self.dir.join(v);
                if !path.is_file() {
                    let mut pr = self.problems();
                    pr.at(
                        "variant",
                        format!("no variant file `{v}` (relative to this file)"),
                    );
                    return Err(pr.diags);
                }
                crate::variant::Variant::from_file(&path)?.rules(&ds)
            }
        }
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
        let mut pr = self.problems();
        let mut options = Vec::new();
        for (i, text) in self.def.play.iter().enumerate() {
            let path = format!("play[{i}]");
            if s.legal(r, &mut options).is_none() {
                pr.at(&path, format!("`{text}`: the game is already over"));
                return Err(pr.diags);
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
                    return Err(pr.diags);
                }
            };
            if let Err(e) = s.apply(r, choice) {
                pr.at(&path, format!("`{text}`: {e}"));
                return Err(pr.diags);
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
