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

/// R5.13: pick `count` distinct tokens (one at a time) and move each
/// `steps` toward the actor. `up_to`: the actor may stop early (docs/open-questions.md#q9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveTokens {
    pub what: TokenSelector,
    pub steps: Amount,
    pub count: u8,
    pub up_to: bool,
}

/// Move every matching evidence token on the track (Bob Haldeman).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveAll {
    pub filter: EvidenceFilter,
    pub steps: u8,
}

/// R5.13 "to space k": pick one token and put it on space `space` of the
/// actor's side (0 = the centre; space = track length gains it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Place {
    pub what: TokenSelector,
    pub space: u8,
}

/// Put the initiative token and/or every matching evidence token on a
/// space; `flip_up` turns face-down evidence face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlaceAll {
    pub what: TokenSelector,
    pub space: u8,
    pub flip_up: bool,
}

/// Draw one evidence token from the bag and put it on space `space` of the
/// actor's side (docs/open-questions.md#q2: nothing happens with an empty bag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DrawToTrack {
    pub space: u8,
    pub face_up: bool,
}

/// Draw one evidence token from the bag and pin it (R7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DrawAndPin;

/// Take a token off the research track and return it to the bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TrackToBag {
    pub filter: EvidenceFilter,
}

/// Take a token off the evidence board and return it to the bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardToBag {
    pub filter: EvidenceFilter,
}

/// Take a token off the research track and pin it (R7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PinFromTrack {
    pub filter: EvidenceFilter,
}

/// Take a token off the evidence board and put it on a track space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardToTrack {
    pub filter: EvidenceFilter,
    pub space: u8,
    pub face_up: bool,
}

/// Turn one face-down evidence token on the board face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FlipOnBoard {
    pub filter: EvidenceFilter,
}

/// R5.13: pin a picture from the supply, face up for the Editor, face down for Nixon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PinPicture {
    pub picture: PictureRef,
}

/// Return a pinned picture to the supply (Deep Throat, docs/open-questions.md#q10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnpinPicture {
    pub face_up: Option<bool>,
}

/// A player discards random cards from hand (docs/open-questions.md#q4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiscardRandom {
    pub who: Who,
    pub count: u8,
}

/// The actor takes another turn after this one (docs/open-questions.md#q4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExtraTurn;

/// The card phase ends: both players discard their hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EndCardPhase;

/// Draw the top card of the actor's deck and play it at once (docs/open-questions.md#q3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayTopCard;

/// A restriction for the rest of the round: `who` may not use `part` of
/// cards of these types (it becomes a [`Forbid`] on the state).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Restrict {
    pub who: Who,
    pub part: Part,
    pub types: TypeMask,
}

/// Cancel the play this reaction answers; its card goes to `dest` (R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CancelTrigger {
    pub dest: Dest,
}

/// Pick a card; the chosen card is remembered for the instructions up to
/// `skip_to`, which is where the program goes on when nothing is chosen.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChooseCard {
    pub zone: Zone,
    pub who: Who,
    pub filter: CardFilter,
    pub optional: bool,
    pub prompt: String,
    pub skip_to: u16,
}

/// Remove the chosen card from the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RemoveChosen;

/// Carry out the chosen card's action part as if it had been played (docs/open-questions.md#q7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PerformChosen;

/// The card being played ends in `dest` instead of where its type sends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SetDestination {
    pub dest: Dest,
}

/// A choice between branches; each option (a label) jumps to its first instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Branch {
    pub prompt: String,
    pub options: Vec<(String, u16)>,
}

/// Go on at another instruction (the end of a branch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Jump {
    pub to: u16,
}

/// One effect primitive. Each names the rule it implements; the VM carries it
/// out "fully where possible" and skips what cannot be done (R5.9). Every
/// variant wraps a struct of its own name: that struct is the instruction's
/// one home in the VM (`game::engine::vm`), holding how it runs, what it
/// offers to pick, how a pick is applied and what it asks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Instr {
    Move(MoveTokens),
    MoveAll(MoveAll),
    Place(Place),
    PlaceAll(PlaceAll),
    DrawToTrack(DrawToTrack),
    DrawAndPin(DrawAndPin),
    TrackToBag(TrackToBag),
    BoardToBag(BoardToBag),
    PinFromTrack(PinFromTrack),
    BoardToTrack(BoardToTrack),
    FlipOnBoard(FlipOnBoard),
    PinPicture(PinPicture),
    UnpinPicture(UnpinPicture),
    DiscardRandom(DiscardRandom),
    ExtraTurn(ExtraTurn),
    EndCardPhase(EndCardPhase),
    PlayTopCard(PlayTopCard),
    Forbid(Restrict),
    CancelTrigger(CancelTrigger),
    ChooseCard(ChooseCard),
    RemoveChosen(RemoveChosen),
    PerformChosen(PerformChosen),
    SetDestination(SetDestination),
    Branch(Branch),
    Jump(Jump),
}

/// A compiled card action.
pub type Program = Vec<Instr>;
