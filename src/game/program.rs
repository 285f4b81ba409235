//! The effect language: what a card script yields and the VM executes.
//!
//! A program is a flat list of instructions. Choices that lead to different
//! instructions (`one_of`, `choose_card`) jump to branches laid out in the
//! same list, so a running program is just an index (`pc`) into it: plain
//! data, cheap to clone, easy to save. Token and card selections are filters
//! evaluated by the VM when the instruction runs, not when the script runs,
//! so the same program is valid whatever the position: a script that reads no
//! game state is evaluated once at load and reused.

use crate::game::model::{CardType, Colour, Dest, Part, PictureId, Side};
use serde::{Deserialize, Serialize};

/// Face-up, face-down or either (R5.13: "move evidence" may pick either).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Face {
    #[default]
    Any,
    Up,
    Down,
}

impl Face {
    pub fn admits(self, face_up: bool) -> bool {
        match self {
            Face::Any => true,
            Face::Up => face_up,
            Face::Down => !face_up,
        }
    }
}

/// Which evidence tokens an instruction may pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct EvidenceFilter {
    pub face: Face,
    /// Only tokens showing this colour (either colour of a two-coloured token counts).
    pub colour: Option<Colour>,
}

/// Which research-track tokens an instruction may pick: any combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct TokenSelector {
    pub initiative: bool,
    pub momentum: bool,
    pub evidence: Option<EvidenceFilter>,
    /// The token moved by the play a reaction answers (Follow the money!, R6.5).
    pub trigger_token: bool,
}

/// A number of steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Amount {
    Fixed(u8),
    /// The value of the card whose play a reaction answers (R6.5).
    TriggerValue,
}

/// A player relative to the one carrying out the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Who {
    Me,
    Opponent,
}

impl Who {
    pub fn resolve(self, actor: Side) -> Side {
        match self {
            Who::Me => actor,
            Who::Opponent => actor.other(),
        }
    }
}

/// Where a card is chosen from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Zone {
    Hand,
    Discard,
    Removed,
}

/// Which cards a choice may pick.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct CardFilter {
    pub types: TypeMask,
    /// `Some(false)`: no reaction cards; `Some(true)`: only reaction cards.
    pub reaction: Option<bool>,
    /// Only cards whose action part could be used now (requirement met, not
    /// forbidden this round, docs/open-questions.md#q7).
    pub usable: bool,
}

/// A set of card types; empty means every type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct TypeMask(pub u8);

impl TypeMask {
    pub fn of(types: &[CardType]) -> TypeMask {
        TypeMask(types.iter().fold(0, |m, t| m | (1 << (*t as u8))))
    }

    pub fn admits(self, t: CardType) -> bool {
        self.0 == 0 || self.0 & (1 << (t as u8)) != 0
    }

    pub fn types(self) -> Vec<CardType> {
        [CardType::Event, CardType::Conspirator, CardType::Journalist]
            .into_iter()
            .filter(|t| self.0 & (1 << (*t as u8)) != 0)
            .collect()
    }
}

/// A restriction in force for the rest of the round (A brilliant mood).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Forbid {
    pub side: Side,
    pub part: Part,
    pub types: TypeMask,
}

impl Forbid {
    pub fn forbids(&self, side: Side, part: Part, card_type: CardType) -> bool {
        self.side == side && self.part == part && self.types.admits(card_type)
    }
}

/// A picture named by an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PictureRef {
    Named(PictureId),
    /// The informant printed on the card being carried out.
    ThisCard,
}

/// One effect primitive. Each names the rule it implements; the VM carries it
/// out "fully where possible" and skips what cannot be done (R5.9).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Instr {
    /// R5.13: pick `count` distinct tokens (one at a time) and move each
    /// `steps` toward the actor. `up_to`: the actor may stop early (docs/open-questions.md#q9).
    Move {
        what: TokenSelector,
        steps: Amount,
        count: u8,
        up_to: bool,
    },
    /// Move every matching evidence token on the track (Bob Haldeman).
    MoveAll { filter: EvidenceFilter, steps: u8 },
    /// R5.13 "to space k": pick one token and put it on space `space` of the
    /// actor's side (0 = the centre; space = track length gains it).
    Place { what: TokenSelector, space: u8 },
    /// Put the initiative token and/or every matching evidence token on a
    /// space; `flip_up` turns face-down evidence face up.
    PlaceAll {
        what: TokenSelector,
        space: u8,
        flip_up: bool,
    },
    /// Draw one evidence token from the bag and put it on space `space` of the
    /// actor's side (docs/open-questions.md#q2: nothing happens with an empty bag).
    DrawToTrack { space: u8, face_up: bool },
    /// Draw one evidence token from the bag and pin it (R7.6).
    DrawAndPin,
    /// Take a token off the research track and return it to the bag.
    TrackToBag { filter: EvidenceFilter },
    /// Take a token off the evidence board and return it to the bag.
    BoardToBag { filter: EvidenceFilter },
    /// Take a token off the research track and pin it (R7.6).
    PinFromTrack { filter: EvidenceFilter },
    /// Take a token off the evidence board and put it on a track space.
    BoardToTrack {
        filter: EvidenceFilter,
        space: u8,
        face_up: bool,
    },
    /// Turn one face-down evidence token on the board face up.
    FlipOnBoard { filter: EvidenceFilter },
    /// R5.13: pin a picture from the supply, face up for the Editor, face down for Nixon.
    PinPicture { picture: PictureRef },
    /// Return a pinned picture to the supply (Deep Throat, docs/open-questions.md#q10).
    UnpinPicture { face_up: Option<bool> },
    /// A player discards random cards from hand (docs/open-questions.md#q4).
    DiscardRandom { who: Who, count: u8 },
    /// The actor takes another turn after this one (docs/open-questions.md#q4).
    ExtraTurn,
    /// The card phase ends: both players discard their hands.
    EndCardPhase,
    /// Draw the top card of the actor's deck and play it at once (docs/open-questions.md#q3).
    PlayTopCard,
    /// A restriction for the rest of the round: `who` may not use `part` of
    /// cards of these types.
    Forbid {
        who: Who,
        part: Part,
        types: TypeMask,
    },
    /// Cancel the play this reaction answers; its card goes to `dest` (R6).
    CancelTrigger { dest: Dest },
    /// Pick a card; the chosen card is remembered for the instructions up to
    /// `skip_to`, which is where the program goes on when nothing is chosen.
    ChooseCard {
        zone: Zone,
        who: Who,
        filter: CardFilter,
        optional: bool,
        prompt: String,
        skip_to: u16,
    },
    /// Remove the chosen card from the game.
    RemoveChosen,
    /// Carry out the chosen card's action part as if it had been played (docs/open-questions.md#q7).
    PerformChosen,
    /// The card being played ends in `dest` instead of where its type sends it.
    SetDestination(Dest),
    /// A choice between branches; each option jumps to its first instruction.
    Branch {
        prompt: String,
        options: Vec<(String, u16)>,
    },
    /// Go on at another instruction (the end of a branch).
    Jump(u16),
}

/// A compiled card action.
pub type Program = Vec<Instr>;
