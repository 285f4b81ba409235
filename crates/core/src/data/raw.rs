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
    /// Where the values come from, citing the in-repo docs.
    pub source: String,
    /// Names of the fields of this file whose values are placeholders.
    #[serde(default)]
    pub placeholders: Vec<String>,
}

/// `cards/game.ron`: the game's numbers and the settings a house rule may flip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Game")]
pub struct GameDef {
    /// The game's name, shown in reports.
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
    /// The readings a house rule may flip.
    pub settings: SettingsDef,
    /// Where the file's values come from.
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
    /// R7.3: where the Editor's momentum token goes when her card is full.
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
    /// Where the file's values come from.
    pub provenance: ProvenanceDef,
}

/// One picture tile (R1.4), in `tokens.ron`'s `pictures`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Picture")]
pub struct PictureDef {
    /// The last name printed on the informant space, used as the key.
    pub name: String,
    /// The full name, shown to players (`Rose Mary Woods`).
    pub full_name: String,
}

/// A group of identical evidence tokens, in `tokens.ron`'s `evidence` (D4).
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
    /// Every space of the board.
    pub spaces: Vec<BoardSpaceDef>,
    /// Threads joining two spaces, by space id.
    pub threads: Vec<(String, String)>,
    /// Where the file's values come from.
    pub provenance: ProvenanceDef,
}

/// One space of the board, in `board.ron`'s `spaces`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "BoardSpace")]
pub struct BoardSpaceDef {
    /// A unique name (`e2b`), used by the threads, scenarios and the notation.
    pub id: String,
    /// What the space is.
    pub kind: SpaceKindDef,
    /// Axial hex coordinates (q, r), used to draw the board.
    pub at: (i8, i8),
}

/// What a board space is, as `board.ron` writes it (R1.6).
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
    /// The printed card number (D1); unique among all cards.
    pub number: u16,
    /// Stable id used by scenarios, logs and variants (`nixon.howard_hunt`).
    pub id: String,
    /// The card's name, shown to players.
    pub name: String,
    /// Whose deck it is in.
    pub side: Side,
    /// Event, conspirator (Nixon only) or journalist (the Editor only) (R1.7).
    #[serde(rename = "type")]
    pub card_type: CardType,
    /// The value: the steps of its value part, 1 to 9 (the printed cards show 1
    /// to 4, D2; R5.3).
    pub value: u8,
    /// One, two or three different colours; three is a joker (R5.4, D2).
    pub colours: Vec<Colour>,
    /// The informant an informant card names.
    #[serde(default)]
    pub informant: Option<String>,
    /// The number of steps printed in the action text (informant cards).
    #[serde(default)]
    pub steps: Option<u8>,
    /// When the action part may be used (R5.11); `None`: always.
    #[serde(default)]
    pub requirement: Option<RequirementDef>,
    /// For reaction cards: the opponent's play it answers (R5.12, R6).
    #[serde(default)]
    pub reaction: Option<TriggerDef>,
    /// The action as printed, shown to players; the engine does not read it.
    pub action_text: String,
    /// Path of the rhai script, relative to the data root.
    pub script: String,
    /// The quote; no effect on play (D7).
    #[serde(default)]
    pub quote: String,
    /// Where the file's values come from.
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

/// What a value play must be moving to trigger a reaction, as files write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Moved")]
pub enum MovedDef {
    /// The initiative token.
    Initiative,
    /// The momentum token.
    Momentum,
    /// An evidence token (Follow the money!).
    Evidence,
}

/// A momentum card (R9), one file each under `cards/momentum/`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "MomentumCard")]
pub struct MomentumCardDef {
    /// The printed card number (D1); unique among all cards.
    pub number: u16,
    /// A unique id (`nixon.momentum`, `editor.momentum`).
    pub id: String,
    /// The card's name, shown to players.
    pub name: String,
    /// Whose card it is; one card per side.
    pub side: Side,
    /// The spaces, 1 to 20, the first is space 1 (R9).
    pub spaces: Vec<MomentumSpaceDef>,
    /// Where the file's values come from.
    pub provenance: ProvenanceDef,
}

/// One space of a momentum card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "MomentumSpace")]
pub struct MomentumSpaceDef {
    /// The space's title, shown to players ("Watergate Trial").
    #[serde(default)]
    pub title: Option<String>,
    /// The printed instruction, shown to players.
    #[serde(default)]
    pub text: Option<String>,
    /// Path of the rhai script carried out when a token is placed here (R7.3).
    #[serde(default)]
    pub script: Option<String>,
}
