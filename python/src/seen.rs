//! What each player has seen, oldest first: the record an information
//! state is written from (`Match::information_state_string`).
//!
//! One list for both players, each entry an action as it happened (who
//! chose what, the events, the hands that changed) with what each player
//! could identify before it (their `Sight`s). The lines a player reads are
//! narrated from it only when the record is read: OpenSpiel applies an
//! action at every step of a search, and reads an information state far
//! less often, so narrating every event twice at each step (a string and
//! an allocation a line) was about half of `apply_action`'s time
//! (BENCHMARKS.md, "the engine through Python").
//!
//! The entries are shared between copies, each pointing to the one before
//! it: OpenSpiel copies a state at every step of a search or a test
//! (`clone`, `random_sim_test`), and a copy that cloned every line cost a
//! game's whole record at each step, so a game cost the square of its
//! length. A copy costs one reference count, an action one allocation
//! (its events' list moved in).

use std::sync::Arc;
use watergate_core::game::engine::Event;
use watergate_core::game::model::{BySide, CardId, Side};
use watergate_core::game::observation::Sight;
use watergate_core::game::rules::Rules;
use watergate_formats::narrate::Narrator;

/// Both players' record: the last entry, and through it every entry before.
#[derive(Clone, Default)]
pub struct Record {
    last: Option<Arc<Entry>>,
}

struct Entry {
    what: What,
    before: Option<Arc<Entry>>,
}

enum What {
    /// Each player's lines as restored from a saved state (`Match::saved`
    /// writes lines, not entries).
    Lines(BySide<Vec<String>>),
    Step(Step),
}

/// An action (or a deal) as the record keeps it.
pub struct Step {
    /// The choice as its player said it (`None` for chance's), and whether
    /// the other player sees it said.
    pub said: Option<Said>,
    /// What each player could identify before the events.
    pub sights: BySide<Sight>,
    pub events: Vec<Event>,
    /// Each hand the events changed, as it is after them.
    pub hands: BySide<Option<Vec<CardId>>>,
}

/// A player's choice as their record says it, and whether the other player
/// sees it said.
pub struct Said {
    pub by: Side,
    pub line: String,
    pub public: bool,
}

impl Record {
    /// Adds `step`, after every entry so far.
    pub fn push(&mut self, step: Step) {
        self.push_what(What::Step(step));
    }

    /// The record of a saved state: each player's lines as saved.
    pub fn restored(lines: BySide<Vec<String>>) -> Record {
        let mut record = Record::default();
        if lines.iter().any(|l| !l.is_empty()) {
            record.push_what(What::Lines(lines));
        }
        record
    }

    fn push_what(&mut self, what: What) {
        let before = self.last.take();
        self.last = Some(Arc::new(Entry { what, before }));
    }

    /// The lines `side` has seen, oldest first.
    pub fn lines(&self, r: &Rules, side: Side) -> Vec<String> {
        let mut entries = Vec::new();
        let mut at = self.last.as_deref();
        while let Some(entry) = at {
            entries.push(entry);
            at = entry.before.as_deref();
        }
        let narrator = Narrator::new(r, Some(side));
        let mut out = Vec::new();
        for entry in entries.into_iter().rev() {
            match &entry.what {
                What::Lines(lines) => out.extend(lines[side].iter().cloned()),
                What::Step(step) => step.narrate(r, &narrator, side, &mut out),
            }
        }
        out
    }

    /// Whether both records read the same to both players.
    pub fn same(&self, other: &Record, r: &Rules) -> bool {
        match (&self.last, &other.last) {
            (None, None) => true,
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => true,
            _ => Side::BOTH
                .iter()
                .all(|&side| self.lines(r, side) == other.lines(r, side)),
        }
    }
}

impl Step {
    /// Appends what `side` saw of this step: the choice if it was theirs or
    /// public, each event as their sight showed it, their hand if it changed.
    fn narrate(&self, r: &Rules, narrator: &Narrator, side: Side, out: &mut Vec<String>) {
        if let Some(said) = &self.said {
            if said.by == side || said.public {
                out.push(said.line.clone());
            }
        }
        let mut sight = self.sights[side];
        for e in &self.events {
            out.push(narrator.line(&sight.see(e)));
        }
        if let Some(hand) = &self.hands[side] {
            let names: Vec<&str> = hand.iter().map(|c| r.card(*c).id.as_str()).collect();
            out.push(format!("my hand: {}", names.join(" ")));
        }
    }
}

impl Drop for Record {
    /// Entry by entry, not by the default recursion, which would go as deep
    /// as the record is long (hundreds of actions in a long game).
    fn drop(&mut self) {
        let mut at = self.last.take();
        while let Some(entry) = at {
            match Arc::try_unwrap(entry) {
                Ok(mut only) => at = only.before.take(),
                // Another copy still holds the rest.
                Err(_) => break,
            }
        }
    }
}
