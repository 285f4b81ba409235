//! Game logs: a whole game as a RON file that replays to the same end.
//!
//! A log holds the start (a scenario: a seed for a new game, or a complete
//! position, so the file needs nothing else), who played each side, every
//! choice that was decided, in notation, and the outcome. Only real
//! decisions are listed: single-option decisions are taken by the engine
//! itself, so replaying the listed choices walks the same path. The start
//! names the rules the game was played with, as a scenario does (`data`,
//! `variant`, `edits`), so the log replays on them by itself; the data's
//! fingerprint is stored so a replay on other rules is told so, in one
//! sentence rather than as the first choice or token that no longer fits.

use crate::data::{self, srcmap::SourceMap, GameSource};
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

    /// The log as RON text, its first line saying how to replay it.
    pub fn to_text(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default()
            .struct_names(true)
            .depth_limit(5)
            .separate_tuple_members(false)
            .enumerate_arrays(false);
        let body = data::ron_options()
            .to_string_pretty(self, pretty)
            .unwrap_or_else(|e| format!("// could not write the log: {e}\n"));
        format!(
            "// A Watergate game log written by watergate {}; replay it with `watergate replay FILE`.\n{body}\n",
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
    /// The file's first line, when a comment: an older log said there how
    /// to replay it (`other_rules` quotes it).
    pub text_first_line: Option<String>,
}

/// Reads a log file the user names; every problem as `path:line:col:
/// message`. Its start may name the data and variant the game was played
/// with (`watergate play` writes them), read as a scenario file's are.
pub fn read(path: &Path) -> Result<LoadedLog, Diagnostics> {
    let display = path.display().to_string();
    let text = data::read_text_file(path, "a UTF-8 RON game log")?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse(&display, &text, dir, true)
}

/// Parses a log from text that comes from elsewhere than a file the user
/// named (the studio: an upload, a listed log), whose start may name no
/// file: nothing a page sends makes the server read a file.
pub fn from_text(display: &str, text: &str, dir: PathBuf) -> Result<LoadedLog, Diagnostics> {
    parse(display, text, dir, false)
}

fn parse(
    display: &str,
    text: &str,
    dir: PathBuf,
    may_name_files: bool,
) -> Result<LoadedLog, Diagnostics> {
    let log = data::parse_ron_all::<GameLog>(display, text)?;
    let loaded = LoadedLog {
        log,
        display: display.to_string(),
        dir,
        map: SourceMap::build(text),
        text_first_line: text
            .lines()
            .next()
            .filter(|l| l.starts_with("//"))
            .map(str::to_string),
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
    if !may_name_files {
        for (field, name) in [
            ("data", &loaded.log.start.data),
            ("variant", &loaded.log.start.variant),
        ] {
            if let Some(name) = name {
                problems.push(loaded.at(
                    &format!("start.{field}"),
                    format!(
                        "this game was played with {field} `{name}`, a file read here only from the command line: replay it with `watergate replay FILE`"
                    ),
                ));
            }
        }
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

    /// The rules of a log that names no files (`from_text`): `ds` (the
    /// game the reader runs) with the start's `edits`, as a scenario
    /// applies its own (a game played on from a scenario with edits
    /// carries them in its log).
    pub fn rules(&self, ds: &crate::data::DataSet) -> Result<Rules, Diagnostics> {
        self.start_scenario().rules_with_edits(ds)
    }

    /// Whether the start carries edits (its rules are then `rules`).
    pub fn has_edits(&self) -> bool {
        self.log.start.edits.is_some()
    }

    /// Whether the start names rules of its own: a data root, a variant
    /// or edits (its rules are then `rules_for`'s).
    pub fn has_own_rules(&self) -> bool {
        let start = &self.log.start;
        start.data.is_some() || start.variant.is_some() || start.edits.is_some()
    }

    /// The rules to replay the game with: those the start names (its data
    /// root, its variant, its edits, as a scenario's), but that `given`
    /// (the replay's `--data`, `--variant`) takes the place of the data or
    /// the variant the log names: a log replayed on a moved copy of the
    /// data, or on an edited game to see where it parts from the recorded
    /// one. A variant given and named is applied once, not twice.
    pub fn rules_for(&self, given: &GameSource) -> Result<Rules, Diagnostics> {
        self.scenario_for(given).rules(given)
    }

    /// Where `rules_for`'s rules come from, to stamp into a position taken
    /// from this game (`mine --logs` writes puzzles from logs).
    pub fn origin_for(&self, given: &GameSource) -> save::RulesOrigin {
        save::RulesOrigin::of(given, Some(&self.scenario_for(given)))
    }

    /// The log's start as a scenario whose data and variant give way to
    /// those `given`.
    fn scenario_for(&self, given: &GameSource) -> Scenario {
        let mut own = self.start_scenario();
        if given.data.is_some() {
            own.def.data = None;
        }
        if given.variant.is_some() {
            own.def.variant = None;
        }
        own
    }

    /// The one problem to report when the replay on `r` (the game
    /// `given` asked for, with what the log names) does not work and `r`
    /// is not the game the log was played on: not every token and choice
    /// that no longer fits, but that the rules differ, and the rules the
    /// game was played with, as far as the log tells them. `None` when `r`
    /// is that game (its fingerprint is the log's).
    pub fn other_rules(&self, r: &Rules, given: &GameSource) -> Option<Diagnostic> {
        let now = fingerprint_hex(r);
        if self.log.fingerprint == now {
            return None;
        }
        let start = &self.log.start;
        let named: Vec<String> = [("--data", &start.data), ("--variant", &start.variant)]
            .into_iter()
            .filter_map(|(flag, p)| Some(format!("{flag} {}", crate::shell_word(p.as_ref()?))))
            .collect();
        // The game the replay loaded: each of data and variant given, or
        // else the log's (`rules_for`).
        let loaded = GameSource {
            data: given
                .data
                .clone()
                .or_else(|| start.data.as_ref().map(PathBuf::from)),
            variant: given
                .variant
                .clone()
                .or_else(|| start.variant.as_ref().map(PathBuf::from)),
        };
        let file = crate::shell_word(&self.display);
        // Flags given for a log that names its rules: they are what differs.
        let overridden = !named.is_empty() && (given.data.is_some() || given.variant.is_some());
        let fix = if overridden {
            format!(
                "the log names the rules it was played with ({}): replay it without --data and --variant, `watergate replay {file}`",
                named.join(" ")
            )
        } else if !named.is_empty() {
            format!(
                "the log names the rules it was played with ({}), and they have changed since",
                named.join(" ")
            )
        } else if let Some(flags) = self.flags_in_first_line() {
            // A log written before logs named their rules says them in
            // its first line.
            format!(
                "its first line says how it was played: replay it with `watergate replay {file}{flags}`"
            )
        } else {
            "the log names no data or variant: replay it with the --data and --variant it was played with".to_string()
        };
        Some(self.at(
            "fingerprint",
            format!(
                "this game was played on other rules than {} (fingerprint {} in the log, {now} here), and its choices do not replay on them; {fix}",
                loaded.label(),
                self.log.fingerprint
            ),
        ))
    }

    /// The flags (` --data DIR --variant FILE`) the first line of a log
    /// written before logs named their rules gives for its replay.
    fn flags_in_first_line(&self) -> Option<String> {
        let first = self.text_first_line.as_deref()?;
        let (_, rest) = first.split_once("`watergate replay FILE")?;
        let (flags, _) = rest.split_once('`')?;
        (!flags.trim().is_empty()).then(|| flags.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A log of a new game, its start naming `variant`.
    fn naming(variant: &str) -> String {
        let r = crate::data::shipped();
        let mut log = GameLog::new_game(&r, 3, players("random", "random"));
        log.start.variant = Some(variant.to_string());
        log.to_text()
    }

    #[test]
    fn a_log_from_the_studio_may_name_no_file_and_one_the_user_names_may() {
        let text = naming("scenarios/variants/old_board.ron");
        let refused = from_text("up.log.ron", &text, PathBuf::new()).unwrap_err();
        assert_eq!(refused.len(), 1, "{refused}");
        assert!(
            refused.to_string().contains(
                "this game was played with variant `scenarios/variants/old_board.ron`, a file read here only from the command line"
            ),
            "{refused}"
        );
        let read = parse("up.log.ron", &text, PathBuf::new(), true).unwrap();
        assert!(read.has_own_rules());
    }
}
