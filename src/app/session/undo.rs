//! How far back a player may undo, for the terminal and the studio alike:
//! only their own decisions since they last learned something — the other
//! side's reply, or a card or token drawn, turned up or shown. Going back
//! past that would let a player choose again knowing what the first choice
//! showed them, with the same draws to come (R4.3; issue 41).
//!
//! A [`History`] keeps a snapshot before each decision that can be taken
//! back; its [`Horizon`] says, per side, the first of them that side may
//! still go back to. Every session keeps one ([`super::Session`]), so the
//! terminal and the studio refuse the same undos with the same reasons.

use crate::game::engine::Event;
use crate::game::model::{BySide, Side};
use crate::game::state::State;

/// What a side saw that stops undo going further back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learned {
    Nothing,
    /// The other side decided.
    Reply(Side),
    /// A card or token was drawn, turned up or shown, or a deck shuffled.
    Reveal,
}

/// Why undo was refused: the game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoUndo {
    /// The side has not decided anything yet.
    Nothing,
    /// The decision to take back came before the side learned this.
    Learned(Learned),
}

impl std::fmt::Display for NoUndo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoUndo::Nothing | NoUndo::Learned(Learned::Nothing) => {
                write!(f, "nothing to undo: you have not decided anything yet")
            }
            NoUndo::Learned(Learned::Reply(other)) => write!(
                f,
                "cannot undo: {other} has decided since your last decision, and taking that back would let you choose again knowing the reply"
            ),
            NoUndo::Learned(Learned::Reveal) => write!(
                f,
                "cannot undo: a card or token was drawn or shown to you since your last decision, and taking that back would let you choose again knowing it"
            ),
        }
    }
}

/// Per side, the first snapshot of the history that side may go back to,
/// and what it learned there.
#[derive(Clone, Debug)]
pub struct Horizon(BySide<(usize, Learned)>);

impl Default for Horizon {
    fn default() -> Self {
        Horizon(BySide::from_fn(|_| (0, Learned::Nothing)))
    }
}

impl Horizon {
    /// After a choice (by `mover`, or by chance when `None`) taken while the
    /// history held `snapshots` entries: the other side learned of it, and
    /// each side `revealed` names may have seen something new. None of them
    /// may go back to a snapshot taken before now.
    pub fn learned(&mut self, snapshots: usize, mover: Option<Side>, revealed: BySide<bool>) {
        for side in Side::BOTH {
            if revealed[side] {
                self.0[side] = (snapshots, Learned::Reveal);
            }
        }
        if let Some(by) = mover {
            self.0[by.other()] = (snapshots, Learned::Reply(by));
        }
    }

    /// Whether `side` may go back to snapshot `index` (its own latest
    /// decision), or why not.
    pub fn allows(&self, side: Side, index: Option<usize>) -> Result<usize, NoUndo> {
        let i = index.ok_or(NoUndo::Nothing)?;
        let (first, learned) = self.0[side];
        if i < first {
            return Err(NoUndo::Learned(learned));
        }
        Ok(i)
    }

    /// The history was cut back to `snapshots` entries (an undo): a bound
    /// past its end is brought back to it.
    pub fn cut(&mut self, snapshots: usize) {
        for side in Side::BOTH {
            let (first, learned) = self.0[side];
            if first > snapshots {
                self.0[side] = (snapshots, learned);
            }
        }
    }
}

/// The position before a human's decision, to go back to.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub state: State,
    /// Who decided there.
    pub side: Side,
    /// Choices in the game log at that moment.
    pub choices: usize,
    /// Narration lines each side had been told at that moment.
    pub narration: BySide<usize>,
}

/// The snapshots undo may go back to, and how far back each side may go.
#[derive(Clone, Debug, Default)]
pub struct History {
    snapshots: Vec<Snapshot>,
    horizon: Horizon,
}

impl History {
    /// Before a human's decision: the position to come back to.
    pub fn push(&mut self, snapshot: Snapshot) {
        self.snapshots.push(snapshot);
    }

    /// The decision of the last snapshot did not apply (its choice failed):
    /// there is nothing to take back.
    pub fn pop(&mut self) {
        self.snapshots.pop();
    }

    /// After a choice (by `mover`, or by chance when `None`) applied: see
    /// [`Horizon::learned`].
    pub fn learned(&mut self, mover: Option<Side>, revealed: BySide<bool>) {
        self.horizon.learned(self.snapshots.len(), mover, revealed);
    }

    /// The snapshot undo would go back to for `side` (its latest decision),
    /// or why none.
    pub fn target(&self, side: Side) -> Result<usize, NoUndo> {
        let latest = self.snapshots.iter().rposition(|s| s.side == side);
        self.horizon.allows(side, latest)
    }

    /// Takes back `side`'s latest decision and every later one (all the
    /// side's own, or the horizon would refuse): the snapshot to go back
    /// to, or why none, the history unchanged.
    pub fn undo(&mut self, side: Side) -> Result<Snapshot, NoUndo> {
        let i = self.target(side)?;
        let snapshot = self.snapshots.drain(i..).next().ok_or(NoUndo::Nothing)?;
        self.horizon.cut(i);
        Ok(snapshot)
    }
}

/// Per side, whether a choice that took the game from `before` to `after`
/// with `events` may have shown that side something it did not know: an
/// event that may reveal ([`Event::may_reveal_to`]) or the generator moved.
pub fn revealed(before: &State, after: &State, events: &[Event]) -> BySide<bool> {
    let chance = before.rng() != after.rng();
    BySide::from_fn(|side| chance || events.iter().any(|e| e.may_reveal_to(side)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_stops_the_other_side_and_a_reveal_stops_whoever_saw_it() {
        let mut h = Horizon::default();
        assert_eq!(h.allows(Side::Editor, None), Err(NoUndo::Nothing));
        // The Editor decided twice (snapshots 0 and 1), nothing shown.
        h.learned(1, Some(Side::Editor), BySide::from_fn(|_| false));
        h.learned(2, Some(Side::Editor), BySide::from_fn(|_| false));
        assert_eq!(h.allows(Side::Editor, Some(1)), Ok(1));
        assert_eq!(h.allows(Side::Editor, Some(0)), Ok(0));
        // Nixon replied (snapshot 2): the Editor's decisions before it are fixed.
        h.learned(3, Some(Side::Nixon), BySide::from_fn(|_| false));
        assert_eq!(
            h.allows(Side::Editor, Some(1)),
            Err(NoUndo::Learned(Learned::Reply(Side::Nixon)))
        );
        assert_eq!(h.allows(Side::Nixon, Some(2)), Ok(2));
        // A card drawn for Nixon's own choice: Nixon may not take it back.
        h.learned(3, Some(Side::Nixon), BySide::new(false, true));
        assert_eq!(
            h.allows(Side::Nixon, Some(2)),
            Err(NoUndo::Learned(Learned::Reveal))
        );
        assert!(NoUndo::Learned(Learned::Reveal)
            .to_string()
            .starts_with("cannot undo"));
    }
}
