//! What one player has seen, a line at a time, oldest first: the record an
//! information state is written from (`Match::information_state_string`).
//!
//! Kept as a list shared between copies, each line pointing to the one
//! before it: OpenSpiel copies a state at every step of a search or a
//! test (`clone`, `random_sim_test`), and a copy that cloned every line
//! cost a game's whole record at each step, so a game cost the square of
//! its length. A copy now costs one reference count, a new line one
//! allocation, and the lines are walked only when the record is read.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A player's record: the last line seen, and through it every line before.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(from = "Vec<String>", into = "Vec<String>")]
pub struct Seen {
    last: Option<Arc<Line>>,
    len: usize,
}

struct Line {
    text: String,
    before: Option<Arc<Line>>,
}

impl Seen {
    /// Adds `text`, seen after every line so far.
    pub fn push(&mut self, text: String) {
        let before = self.last.take();
        self.last = Some(Arc::new(Line { text, before }));
        self.len += 1;
    }

    /// The lines, oldest first.
    pub fn lines(&self) -> Vec<&str> {
        let mut out = Vec::with_capacity(self.len);
        let mut at = self.last.as_deref();
        while let Some(line) = at {
            out.push(line.text.as_str());
            at = line.before.as_deref();
        }
        out.reverse();
        out
    }
}

impl PartialEq for Seen {
    fn eq(&self, other: &Seen) -> bool {
        let same_lines = match (&self.last, &other.last) {
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => true,
            _ => self.lines() == other.lines(),
        };
        self.len == other.len && same_lines
    }
}

impl std::fmt::Debug for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.lines()).finish()
    }
}

impl From<Vec<String>> for Seen {
    fn from(lines: Vec<String>) -> Seen {
        let mut seen = Seen::default();
        for line in lines {
            seen.push(line);
        }
        seen
    }
}

impl From<Seen> for Vec<String> {
    fn from(seen: Seen) -> Vec<String> {
        seen.lines().into_iter().map(str::to_string).collect()
    }
}

impl Drop for Seen {
    /// Line by line, not by the default recursion, which would go as deep
    /// as the record is long (thousands of lines in a long game).
    fn drop(&mut self) {
        let mut at = self.last.take();
        while let Some(line) = at {
            match Arc::try_unwrap(line) {
                Ok(mut only) => at = only.before.take(),
                // Another copy still holds the rest.
                Err(_) => break,
            }
        }
    }
}
