//! What each seat has been told, one line per event, from that player's own
//! observations: each side's `Sight` follows the game's events (R4.3), so
//! a seat's narration never names a token it cannot identify, and needs no
//! state to tell it. The studio sends a seat its lines; the terminal prints
//! them as they come, or keeps them for a hotseat player's next screen.

use crate::formats::narrate::narrate;
use crate::game::engine::Event;
use crate::game::model::{BySide, Side};
use crate::game::observation::{self, Sight};
use crate::game::rules::Rules;
use crate::game::state::State;

/// Each side's narration so far, and what it can identify now.
#[derive(Clone, Debug)]
pub struct Narration {
    sights: BySide<Sight>,
    lines: BySide<Vec<String>>,
}

impl Narration {
    /// A new game's: its setup (the deal and draws before the first
    /// decision, `events`) told from the position before the deal.
    pub fn new_game(r: &Rules, events: &[Event]) -> Narration {
        let mut n = Narration {
            sights: BySide::from_fn(|side| Sight::new_game(Some(side))),
            lines: BySide::default(),
        };
        n.tell(r, events);
        n
    }

    /// Nothing told yet, at position `s`.
    pub fn at(s: &State) -> Narration {
        Narration {
            sights: observation::both_sides(s),
            lines: BySide::default(),
        }
    }

    /// Tells both sides `events`, each as it sees them.
    pub fn tell(&mut self, r: &Rules, events: &[Event]) {
        if events.is_empty() {
            return;
        }
        for side in Side::BOTH {
            let seen = self.sights[side].see_all(events);
            self.lines[side].extend(narrate(r, Some(side), &seen));
        }
    }

    /// Every line `side` has been told, in order.
    pub fn lines(&self, side: Side) -> &[String] {
        &self.lines[side]
    }

    /// How many lines each side has been told.
    pub fn marks(&self) -> BySide<usize> {
        BySide::from_fn(|side| self.lines[side].len())
    }

    /// Back to when each side had been told `marks` lines, at position `s`
    /// (an undo): what came after no longer happened.
    pub fn back_to(&mut self, s: &State, marks: BySide<usize>) {
        for side in Side::BOTH {
            self.lines[side].truncate(marks[side]);
        }
        self.sights = observation::both_sides(s);
    }
}
