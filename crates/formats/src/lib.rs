//! Text formats of games and positions: scenario files, game logs, and a
//! position or its events put into words for one viewer (render, narrate).

// The core's modules, named as in one crate: `crate::game::…`.
use watergate_core::{data, diag, game};

pub mod log;
pub mod narrate;
pub mod render;
pub mod scenario;
