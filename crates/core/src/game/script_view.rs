//! What a script may read of the game: a small owned snapshot taken from the
//! acting player's point of view, so a script can never see hidden
//! information or change anything.

use crate::game::model::{CardType, PictureId};

/// The game as a script that reads it sees it, from the acting player's
/// side: what the script API's reading functions (`round()`, `my_hand_size()`
/// …) return. Taken anew at every run of such a script.
#[derive(Clone, Debug, Default)]
pub struct ScriptView {
    /// The round's number, from 1 (`round()`).
    pub round: u16,
    /// The types of the cards in the actor's hand (`my_hand_types()`; its
    /// length is `my_hand_size()`).
    pub my_hand_types: Vec<CardType>,
    /// Cards in the opponent's hand (`opponent_hand_size()`).
    pub opponent_hand_size: usize,
    /// Evidence tokens on the research track (`track_evidence_count()`).
    pub track_evidence: usize,
    /// Whether the initiative token is still on the track (`initiative_on_track()`).
    pub initiative_on_track: bool,
    /// From the actor's point of view: positive on the actor's side.
    pub momentum_position: Option<i8>,
    /// Momentum tokens on the actor's momentum card (`my_momentum()`).
    pub my_momentum: u8,
    /// The pictures in the supply of potential informants (`picture_in_supply`).
    pub pictures_in_supply: Vec<PictureId>,
    /// Turns the actor has taken this round, reactions included
    /// (`turns_played_this_round()`, R6.1, Q5).
    pub turns_played: u8,
}
