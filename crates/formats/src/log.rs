//! Game logs: a whole game as a RON file that replays to the same end.
//!
//! A log holds the start (a scenario: a seed for a new game, or a complete
//! position, so the file needs nothing else), who played each side, every
//! choice that was decided, in notation, and the outcome. Only real
//! decisions are listed: single-option decisions are taken by the engine
//! itself, so replaying the listed choices walks the same path. The data's
//! fingerprint is stored so a replay on edited data can warn before the
//! choices stop matching.

use crate::data::{self, srcmap::SourceMap};
use crate::diag::{Diagnostic, Diagnostics};
use crate::game::engine::notation::{format_choice, parse_choice};
use crate::game::engine::{Choice, Observer};
use crate::game::model::BySide;
use crate::game::model::Outcome;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::scenario::format::ScenarioDef;
use crate::scenario::{save, Scenario};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The format version this build writes and reads.
pub const LOG_VERSION: u32 = 1;

/// A game log as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "GameLog")]
pub struct GameLog {
    pub version: u32,
    /// `Rules::fingerprint` of the data played with, in hex.
    pub fingerprint: String,
    /// Where the game starts: a seed (no `position`) or a complete position.
    pub start: ScenarioDef,
    /// Who played each side: `human`, or an agent (`random`, `ismcts:1000`…).
    pub players: BySide<String>,
    /// Every decided choice, in notation, in order.
    #[serde(default)]
    pub choices: Vec<String>,
    /// How the game ended; absent for a game left unfinished.
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

/// The fingerprint as the log writes it.
pub fn fingerprint_hex(r: &Rules) -> String {
    format!("{:016x}", r.fingerprint)
}

impl GameLog {
    /// A log of a new game from `seed`.
    pub fn new_game(r: &Rules, seed: u64, players: BySide<String>) -> GameLog {
        GameLog::starting_at(
            r,
            ScenarioDef {
                seed,
                ..Default::default()
            },
            players,
        )
    }

    /// A log of a game played on from position `s` (saved whole, generator
    /// included, so the log does not depend on the scenario file).
    pub fn from_position(r: &Rules, s: &State, name: &str, players: BySide<String>) -> GameLog {
        GameLog::starting_at(
            r,
            save::scenario_of(r, s, name, "the start of a game log"),
            players,
        )
    }

    fn starting_at(r: &Rules, start: ScenarioDef, players: BySide<String>) -> GameLog {
        GameLog {
            version: LOG_VERSION,
            fingerprint: fingerprint_hex(r),
            start,
            players,
            choices: Vec::new(),
            outcome: None,
        }
    }

    /// Records `choice`, about to be taken in `before` (the notation of some
    /// choices, such as a script's branch labels, depends on the position).
    pub fn record(&mut self, r: &Rules, before: &State, choice: Choice) {
        self.choices.push(format_choice(r, before, choice));
    }

    /// The log as RON text.
    pub fn to_text(&self) -> String {
        self.to_text_replayed_with("")
    }

    /// The log as RON text, its first line saying how to replay it: with
    /// `flags` (` --data DIR --variant FILE`) when the game was played on
    /// other rules than the shipped ones, which the log's `start` cannot
    /// name.
    pub fn to_text_replayed_with(&self, flags: &str) -> String {
        let pretty = ron::ser::PrettyConfig::default()
            .struct_names(true)
            .depth_limit(5)
            .separate_tuple_members(false)
            .enumerate_arrays(false);
        let body = data::ron_options()
            .to_string_pretty(self, pretty)
            .unwrap_or_else(|e| format!("// could not write the log: {e}\n"));
        format!(
            "// A Watergate game log written by watergate {}; replay it with `watergate replay FILE{flags}`.\n{body}\n",
            env!("CARGO_PKG_VERSION")
        )
    }

    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_text())
    }
}

/// A log read from a file, with what is needed to point at its lines.
#[derive(Clone, Debug)]
pub struct LoadedLog {
    pub log: GameLog,
    /// The path as shown to the user.
    pub display: String,
    pub dir: PathBuf,
    pub map: SourceMap,
}

/// Reads a log file; every problem as `path:line:col: message`.
pub fn read(path: &Path) -> Result<LoadedLog, Diagnostics> {
    let display = path.display().to_string();
    let text = data::read_text_file(path, "a UTF-8 RON game log")?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    from_text(&display, &text, dir)
}

/// Parses a log from text.
pub fn from_text(display: &str, text: &str, dir: PathBuf) -> Result<LoadedLog, Diagnostics> {
    let log = data::parse_ron_all::<GameLog>(display, text)?;
    let loaded = LoadedLog {
        log,
        display: display.to_string(),
        dir,
        map: SourceMap::build(text),
    };
    let mut problems = Diagnostics::default();
    if loaded.log.version != LOG_VERSION {
        problems.push(loaded.at(
            "version",
            format!(
                "log format version {}: this build reads version {LOG_VERSION}",
                loaded.log.version
            ),
        ));
    }
    if loaded.log.start.data.is_some() || loaded.log.start.variant.is_some() {
        problems.push(loaded.at(
            "start",
            "a log's start names no data or variant: replay with `watergate replay --data DIR --variant FILE`",
        ));
    }
    if let Some(e) = &loaded.log.start.edits {
        // A log names no file (it is read where it lies, maybe far from
        // them, and the studio reads no file a page names): edits that
        // name files are written in a variant instead.
        if e.names_files() {
            problems.push(loaded.at(
                "start.edits",
                "a log's edits name no files: write them in a variant file (`Variant(name: \"…\", …)` with the same fields) and replay with `--variant FILE`",
            ));
        }
    }
    if !loaded.log.start.play.is_empty() {
        problems.push(loaded.at(
            "start.play",
            "a log's start is a position; its choices belong in `choices`",
        ));
    }
    if problems.is_empty() {
        Ok(loaded)
    } else {
        Err(problems)
    }
}

impl LoadedLog {
    /// A diagnostic at the value at `path` in the log file.
    pub fn at(&self, path: &str, message: impl Into<String>) -> Diagnostic {
        let (line, col) = self.map.locate(path);
        Diagnostic::new(&self.display, line, col, message)
    }

    /// A warning when the log was written with other data than `r`: its
    /// choices may then not replay.
    pub fn fingerprint_warning(&self, r: &Rules) -> Option<String> {
        let now = fingerprint_hex(r);
        (self.log.fingerprint != now).then(|| {
            format!(
                "warning: {} was written with other game data (fingerprint {}, loaded data {now}); the replay may differ",
                self.display, self.log.fingerprint
            )
        })
    }

    /// The rules the game was played with: `ds` (the `--data` and
    /// `--variant` given for the replay) with the start's `edits`, as a
    /// scenario applies its own (a game played on from a scenario with
    /// edits carries them in its log).
    pub fn rules(&self, ds: &crate::data::DataSet) -> Result<Rules, Diagnostics> {
        self.start_scenario().rules_with_edits(ds)
    }

    /// Whether the start carries edits (its rules are then `rules`).
    pub fn has_edits(&self) -> bool {
        self.log.start.edits.is_some()
    }

    fn start_scenario(&self) -> Scenario {
        Scenario {
            def: self.log.start.clone(),
            display: self.display.clone(),
            dir: self.dir.clone(),
            map: self.map.subtree("start"),
        }
    }

    /// The starting state, reporting the setup's events (a new game deals
    /// cards and draws evidence before the first decision).
    pub fn start<O: Observer>(&self, r: &Rules, o: &mut O) -> Result<State, Diagnostics> {
        let def = &self.log.start;
        if def.position.is_none() {
            return Ok(State::new_observed(r, def.seed, o));
        }
        self.start_scenario().start(r)
    }

    /// Takes choice number `index` (0-based) of the log in `s`; on failure
    /// the diagnostic names the choice (1-based) and points at it, and `s`
    /// is unchanged.
    pub fn apply<O: Observer>(
        &self,
        r: &Rules,
        s: &mut State,
        index: usize,
        o: &mut O,
    ) -> Result<Choice, Diagnostic> {
        let choice = self.choice(r, s, index)?;
        self.take(r, s, index, choice, o)?;
        Ok(choice)
    }

    /// Choice number `index` (0-based) of the log read in `s`, not yet taken.
    pub fn choice(&self, r: &Rules, s: &State, index: usize) -> Result<Choice, Diagnostic> {
        let text = &self.log.choices[index];
        let path = format!("choices[{index}]");
        let number = index + 1;
        let mut options = Vec::new();
        if s.legal(r, &mut options).is_none() {
            return Err(self.at(
                &path,
                format!("choice {number} `{text}`: the game is already over"),
            ));
        }
        parse_choice(r, s, text, &options)
            .map_err(|e| self.at(&path, format!("choice {number}: {e}")))
    }

    /// Takes `choice`, read from choice number `index` by
    /// [`LoadedLog::choice`], in `s`; on failure `s` is unchanged.
    pub fn take<O: Observer>(
        &self,
        r: &Rules,
        s: &mut State,
        index: usize,
        choice: Choice,
        o: &mut O,
    ) -> Result<(), Diagnostic> {
        s.apply_observed(r, choice, o).map_err(|e| {
            let text = &self.log.choices[index];
            self.at(
                &format!("choices[{index}]"),
                format!("choice {} `{text}`: {e}", index + 1),
            )
        })
    }

    /// Whether the replay ended as the log says.
    pub fn check_outcome(&self, s: &State) -> Result<(), Diagnostic> {
        if s.outcome() == self.log.outcome {
            return Ok(());
        }
        let say = |o: Option<Outcome>| match o {
            Some(o) => format!("{} wins ({})", o.winner, o.cause.describe()),
            None => "the game unfinished".to_string(),
        };
        Err(self.at(
            "outcome",
            format!(
                "the log records {}, but replaying its {} choices ends with {}",
                say(self.log.outcome),
                self.log.choices.len(),
                say(s.outcome())
            ),
        ))
    }

    /// Replays the whole log: the final state, or the first problem.
    pub fn replay(&self, r: &Rules) -> Result<State, Diagnostics> {
        let mut s = self.start(r, &mut crate::game::engine::Quiet)?;
        for i in 0..self.log.choices.len() {
            self.apply(r, &mut s, i, &mut crate::game::engine::Quiet)
                .map_err(|d| Diagnostics(vec![d]))?;
        }
        self.check_outcome(&s).map_err(|d| Diagnostics(vec![d]))?;
        Ok(s)
    }
}

/// The players of a game as a log names them.
pub fn players(editor: impl Into<String>, nixon: impl Into<String>) -> BySide<String> {
    BySide {
        editor: editor.into(),
        nixon: nixon.into(),
    }
}
