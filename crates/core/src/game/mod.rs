//! The rules core: the game's model and read-only [`rules::Rules`], the
//! whole position as data ([`state::State`]), the engine that applies
//! choices to it, a player's [`view::View`] and what a player sees of each
//! event ([`observation::Observation`]), and the effect program card
//! scripts yield. It knows scripting only through [`host::ScriptHost`],
//! reads no clock and keeps no global state.

pub mod board_shape;
pub mod engine;
pub mod frame_stack;
pub mod host;
pub mod inline_list;
pub mod invariants;
pub mod model;
pub mod observation;
pub mod program;
pub mod rules;
pub mod script_view;
pub mod setup;
pub mod state;
pub mod view;
pub mod wording;
