//! Stage one of loading: plain definitions exactly as they stand in the RON
//! files. Every struct rejects unknown fields, so a misspelt key fails loudly
//! with its position. No `flatten` and no internally tagged enums: they lose
//! error positions (serde #2035). Stage two (`validate`) turns these into
//! the runtime types of `crate::game::rules`.

use crate::game::model::{CardType, Colour, Part, Side};
use crate::game::rules::{Overflow, Unpinnable};
use serde::{Deserialize, Serialize};

/// Where a file's values come from, and which of them are placeholders for
/// facts printed on the physical components but given by no source
/// (docs/open-questions.md, D1–D7). A designer with the real game replaces them here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, rename = "Provenance")]
pub struct ProvenanceDef {
    pub source: String,
    /// Names of the fields of this file whose values are placeholders.
    #[serde(default)]
    pub placeholders: Vec<String>,
}

/// `cards/game.ron`: the game's numbers and the settings a house rule may flip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Game")]
pub struct GameDef {
    pub name: String,
    /// R4.1: cards drawn by the initiative holder.
    pub hand_size_with_initiative: u8,
    /// R4.1: cards drawn by the other player.
    pub hand_size_without_initiative: u8,
    /// R4.2: evidence tokens Nixon draws onto the 0 space each round.
    pub evidence_per_round: u8,
    /// R1.3: spaces on each side of the 0 space.
    pub track_length: u8,
    /// R1.4: momentum tokens in the game.
    pub momentum_tokens: u8,
    /// R2.3: momentum tokens placed on the 0 space at setup (the rest form the supply).
    pub momentum_on_track_at_start: u8,
    /// R8.1: momentum tokens on Nixon's card that win.
    pub momentum_to_win: u8,
    /// R8.3: connected face-up informants that win for the Editor.
    pub informants_to_connect: u8,
    /// R2.2: who holds the initiative in round 1.
    pub first_initiative: Side,
    pub settings: SettingsDef,
    pub provenance: ProvenanceDef,
}

/// Rule questions with a default a house rule might flip (docs/open-questions.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Settings")]
pub struct SettingsDef {
    /// Q1: where an evidence token goes that must be pinned but has no empty
    /// matching space.
    pub unpinnable_evidence: Unpinnable,
    /// R5.6 erratum (R10.2): after asking for a colour, the Editor's fallback
    /// is limited to that colour. `false` plays the rulebook before the erratum
    /// (a joker's fallback may move a face-up token of any colour).
    pub named_colour_locked: bool,
    /// R7.6: steps the momentum symbol moves the momentum token when pinned.
    pub momentum_symbol_steps: u8,
    /// R7.3: where the Editor's momentum token goes when his card is full.
    pub editor_momentum_overflow: Overflow,
}

/// `cards/tokens.ron`: picture tiles and evidence tokens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Tokens")]
pub struct TokensDef {
    /// R1.4: the picture tiles, in the order the informant cards refer to them.
    pub pictures: Vec<PictureDef>,
    /// R1.4, R1.5: evidence tokens, as groups of identical tokens.
    pub evidence: Vec<EvidenceGroupDef>,
    pub provenance: ProvenanceDef,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Picture")]
pub struct PictureDef {
    /// The last name printed on the informant space, used as the key.
    pub name: String,
    pub full_name: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "EvidenceGroup")]
pub struct EvidenceGroupDef {
    /// One colour, or two for a two-coloured token.
    pub colours: Vec<Colour>,
    /// Carries the momentum symbol (a red "1", R7.6).
    pub momentum_symbol: bool,
    /// How many of these go into the bag at setup (R2.5).
    pub in_bag: u8,
    /// How many stay in the box (the reserve, docs/open-questions.md#d4).
    pub in_reserve: u8,
}

/// `cards/board.ron`: the evidence board (R1.6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Board")]
pub struct BoardDef {
    pub spaces: Vec<BoardSpaceDef>,
    /// Threads joining two spaces, by space id.
    pub threads: Vec<(String, String)>,
    pub provenance: ProvenanceDef,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "BoardSpace")]
pub struct BoardSpaceDef {
    pub id: String,
    pub kind: SpaceKindDef,
    /// Axial hex coordinates (q, r), used to draw the board.
    pub at: (i8, i8),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "SpaceKind")]
pub enum SpaceKindDef {
    /// Nixon's picture in the centre.
    Nixon,
    /// An informant space, marked with that informant's name.
    Informant(String),
    /// An evidence space with its colour slip.
    Evidence(Colour),
}

/// One player card (R1.7), one file each under `cards/<side>/`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "PlayerCard")]
pub struct PlayerCardDef {
    pub number: u16,
    /// Stable id used by scenarios, logs and variants (`nixon.howard_hunt`).
    pub id: String,
    pub name: String,
    pub side: Side,
    #[serde(rename = "type")]
    pub card_type: CardType,
    pub value: u8,
    pub colours: Vec<Colour>,
    /// The informant an informant card names.
    #[serde(default)]
    pub informant: Option<String>,
    /// The number of steps printed in the action text (informant cards).
    #[serde(default)]
    pub steps: Option<u8>,
    #[serde(default)]
    pub requirement: Option<RequirementDef>,
    /// For reaction cards: the opponent's play it answers (R5.12, R6).
    #[serde(default)]
    pub reaction: Option<TriggerDef>,
    pub action_text: String,
    /// Path of the rhai script, relative to the data root.
    pub script: String,
    #[serde(default)]
    pub quote: String,
    pub provenance: ProvenanceDef,
}

/// A requirement for using a card's action part (R5.11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Requirement")]
pub enum RequirementDef {
    /// The named informant's picture tile is in the potential informant supply.
    PictureInSupply(String),
    /// The card is not played on the player's first turn of the round: a
    /// reaction counts as a turn (R6.1), and a card played within a turn
    /// (Howard Hunt's drawn card) belongs to that turn (docs/open-questions.md#q5).
    NotFirstTurnOfRound,
    /// Every requirement holds.
    All(Vec<RequirementDef>),
}

/// The opponent's play a reaction card answers (R6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Trigger")]
pub struct TriggerDef {
    /// Which part the opponent uses.
    pub part: Part,
    /// The types of card that trigger it; empty means any.
    #[serde(default)]
    pub card_types: Vec<CardType>,
    /// For value plays: what the value moves.
    #[serde(default)]
    pub moves: Option<MovedDef>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Moved")]
pub enum MovedDef {
    Initiative,
    Momentum,
    Evidence,
}

/// A momentum card (R9), one file each under `cards/momentum/`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "MomentumCard")]
pub struct MomentumCardDef {
    pub number: u16,
    pub id: String,
    pub name: String,
    pub side: Side,
    pub spaces: Vec<MomentumSpaceDef>,
    pub provenance: ProvenanceDef,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "MomentumSpace")]
pub struct MomentumSpaceDef {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    /// Path of the rhai script carried out when a token is placed here (R7.3).
    #[serde(default)]
    pub script: Option<String>,
}
