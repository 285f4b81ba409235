//! Text formats of games and positions: scenario files, game logs, and a
//! position or its events put into words for one viewer (render, narrate).

// The core's modules, named as in one crate: `crate::game::…`.
use watergate_core::{data, diag, game};

pub mod log;
pub mod narrate;
pub mod render;
pub mod scenario;

/// A word as a POSIX shell reads it back (quoted only when needed).
pub fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=,@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
