//! The seam between the rules core and a scripting host: the core asks a
//! [`ScriptHost`] to run a card's script and gets an effect program back
//! (`crate::game::program`). The rhai host (`crate::script`) implements it;
//! the core never names rhai's engine, only the map type a card context
//! carries.

use crate::game::program::Program;
use crate::game::script_view::ScriptView;
use rhai::Map;
use std::any::Any;
use std::sync::Mutex;

/// What the rules core asks of a scripting host: run a compiled card script
/// and say which file it came from. The core knows only this trait; the
/// rhai host (`crate::script::RhaiHost`) implements it, and an application may wrap it
/// (the bench times every run this way, so the core reads no clock).
pub trait ScriptHost: Send + Sync + std::fmt::Debug {
    /// Runs script unit `unit` for a card. Returns the program it yields
    /// and whether it read the game (then it must be run at every play).
    /// `view` is `None` when probing at load time.
    fn run(
        &self,
        unit: usize,
        ctx: &CardContext,
        view: Option<ScriptView>,
    ) -> Result<(Program, bool), ScriptFailure>;

    /// The file of script unit `unit`, as diagnostics name it.
    fn display(&self, unit: usize) -> &str;

    /// The text of script unit `unit` as it was compiled: what an error's
    /// line and column point into (the file on disk may have changed since,
    /// or be another file of the same name).
    fn text(&self, unit: usize) -> &str;

    /// How many scripts are compiled.
    fn units(&self) -> usize;

    /// The file of script unit `unit`, relative to the data root
    /// (`scripts/nixon/gordon_liddy.rhai`).
    fn file(&self, unit: usize) -> &str;

    /// The names of the functions script unit `unit` calls, for
    /// `watergate script-api`.
    fn calls(&self, unit: usize) -> std::collections::BTreeSet<String>;

    /// The calls of script unit `unit` whose options, written out in the
    /// script or built when it runs, make a choice list what the rules may
    /// hide from its chooser
    /// (`watergate check` warns of them: `Rules::hidden_information_warnings`).
    /// Options built at run time are seen once the script has run with them
    /// (at load, and at the plays of a script that reads the game). None by
    /// default.
    fn revealing_calls(&self, _unit: usize) -> Vec<RevealingCall> {
        Vec::new()
    }

    /// The calls of script unit `unit` that write text (`print`, `debug`),
    /// as (line, column, function): a card script's only output is its
    /// effects, so their text goes nowhere (`watergate check` warns of
    /// them: `Rules::silent_output_warnings`). None by default.
    fn silent_calls(&self, _unit: usize) -> Vec<(usize, usize, String)> {
        Vec::new()
    }

    /// Whether script unit `unit` has nothing in it but comments and
    /// blanks: its card's action does nothing (`watergate check` warns:
    /// `Rules::empty_script_warnings`). No by default.
    fn does_nothing(&self, _unit: usize) -> bool {
        false
    }
}

/// A call in a card script whose choice shows its chooser something hidden.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RevealingCall {
    /// Where the call is in the script (from 1).
    pub line: usize,
    /// The column of the call (from 1).
    pub col: usize,
    /// The function called (`move_evidence`).
    pub function: String,
    /// What its choice lists.
    pub reveals: Reveals,
}

/// What a choice lists that its chooser may not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reveals {
    /// Evidence on the research track of this colour, face-down tokens
    /// included: their hidden colours (R4.3 lets only Nixon see them).
    FaceDownByColour(String),
    /// The cards of the opponent's hand, by name.
    OpponentHand,
}

/// The card a script runs for: what it sees as `card` (and `space`).
/// Read-only once built, so what a host keeps in it from one run to the
/// next (`keep`) always belongs to these contents.
#[derive(Clone, Debug)]
pub struct CardContext {
    card: Map,
    space: Option<i64>,
    has_informant: bool,
    /// Whether the card is a reaction card (R5.12): only its script may
    /// answer the play it reacts to (`cancel_trigger`, `move_trigger_token`).
    is_reaction: bool,
    /// The last space of a side of the research track (`LAST_SPACE` in scripts).
    last_space: i64,
    keep: HostKeep,
}

impl CardContext {
    /// A context: `card` is what the script sees as `card`, `space` the
    /// momentum space (from 1) for a momentum-space script, `has_informant`
    /// whether the card names an informant, `last_space` the last space of a
    /// side of the research track (`LAST_SPACE`).
    pub fn new(card: Map, space: Option<i64>, has_informant: bool, last_space: i64) -> Self {
        CardContext {
            card,
            space,
            has_informant,
            is_reaction: false,
            last_space,
            keep: HostKeep::default(),
        }
    }

    /// The context of a reaction card's script (see `is_reaction`).
    pub fn reaction(self, is_reaction: bool) -> Self {
        CardContext {
            is_reaction,
            ..self
        }
    }

    /// What the script sees as `card`.
    pub fn card(&self) -> &Map {
        &self.card
    }

    /// A momentum-space script's space (from 1), `space` in scripts.
    pub fn space(&self) -> Option<i64> {
        self.space
    }

    /// Whether the card names an informant (`pin_card_picture`).
    pub fn has_informant(&self) -> bool {
        self.has_informant
    }

    /// Whether the card is a reaction card (`cancel_trigger`,
    /// `move_trigger_token`).
    pub fn is_reaction(&self) -> bool {
        self.is_reaction
    }

    /// The last space of a side of the research track (`LAST_SPACE`).
    pub fn last_space(&self) -> i64 {
        self.last_space
    }

    /// Where a host keeps what it built from this context for the next
    /// run in it (the rhai host: the scope holding `card`).
    pub fn keep(&self) -> &HostKeep {
        &self.keep
    }
}

/// What a scripting host keeps in a [`CardContext`] between runs, of
/// whatever type it likes: one item for each run in progress at once
/// (a run takes one out and gives it back). The core never looks inside.
/// A clone of the context starts empty.
#[derive(Default)]
pub struct HostKeep(Mutex<Vec<Box<dyn Any + Send>>>);

impl HostKeep {
    /// Items kept at most: one for each thread running this context's
    /// script at the same moment, as many as a machine runs.
    const MOST: usize = 64;

    /// A kept item of type `T`, if there is one.
    pub fn take<T: Any + Send>(&self) -> Option<T> {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let item = kept.pop()?;
        item.downcast().ok().map(|b| *b)
    }

    /// Keeps `item` for a later run.
    pub fn give_back<T: Any + Send>(&self, item: T) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < Self::MOST {
            kept.push(Box::new(item));
        }
    }
}

impl Clone for HostKeep {
    fn clone(&self) -> Self {
        HostKeep::default()
    }
}

impl std::fmt::Debug for HostKeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HostKeep")
    }
}

/// A script that failed while running, with its position in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptFailure {
    /// The line in the script, from 1 (0: not known).
    pub line: usize,
    /// The column in the line, from 1 (0: not known).
    pub col: usize,
    /// What went wrong, in words.
    pub message: String,
}
