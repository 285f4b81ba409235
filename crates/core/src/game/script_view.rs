//! What a script may read of the game: a small owned snapshot taken from the
//! acting player's point of view, so a script can never see hidden
//! information or change anything.

use crate::game::model::{CardType, PictureId};

#[derive(Clone, Debug, Default)]
pub struct ScriptView {
    pub round: u16,
    pub my_hand_types: Vec<CardType>,
    pub opponent_hand_size: usize,
    pub track_evidence: usize,
    pub initiative_on_track: bool,
    /// From the actor's point of view: positive on the actor's side.
    pub momentum_position: Option<i8>,
    pub my_momentum: u8,
    pub pictures_in_supply: Vec<PictureId>,
    pub turns_played: u8,
}
