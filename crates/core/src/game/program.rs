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
    /// Either face: face-up and face-down tokens alike (the default).
    #[default]
    Any,
    /// Face-up tokens only.
    Up,
    /// Face-down tokens only.
    Down,
}

impl Face {
    /// Whether a token lying with this face (`face_up`) is admitted.
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
    /// Face-up, face-down or either (the `face` option of the script API).
    pub face: Face,
    /// Only tokens showing this colour (either colour of a two-coloured token counts).
    pub colour: Option<Colour>,
}

/// Which research-track tokens an instruction may pick: any combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct TokenSelector {
    /// The initiative token may be picked (while it is on the track, R5.8).
    pub initiative: bool,
    /// The momentum token may be picked (while it is on the track, R5.8).
    pub momentum: bool,
    /// Evidence tokens on the research track that this filter admits may be
    /// picked; `None`: no evidence token.
    pub evidence: Option<EvidenceFilter>,
    /// The token moved by the play a reaction answers (Follow the money!, R6.5).
    pub trigger_token: bool,
}

/// A number of steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Amount {
    /// A number of steps fixed by the script (0 to 99).
    Fixed(u8),
    /// The value of the card whose play a reaction answers (R6.5).
    TriggerValue,
}

/// A player relative to the one carrying out the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Who {
    /// The acting player: the one carrying out the program.
    Me,
    /// The acting player's opponent.
    Opponent,
}

impl Who {
    /// The side this player is, when `actor` carries out the program.
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
    /// The player's hand.
    Hand,
    /// The player's discard pile.
    Discard,
    /// The cards out of the game (one pile for both sides; only the player's
    /// own cards in it are offered).
    Removed,
}

/// Which cards a choice may pick.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct CardFilter {
    /// The card types that may be picked (empty: every type).
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
    /// The set of the types listed.
    pub fn of(types: &[CardType]) -> TypeMask {
        TypeMask(types.iter().fold(0, |m, t| m | (1 << (*t as u8))))
    }

    /// Whether a card of type `t` is in the set (always, for the empty set).
    pub fn admits(self, t: CardType) -> bool {
        self.0 == 0 || self.0 & (1 << (t as u8)) != 0
    }

    /// The types in the set, in the order event, conspirator, journalist.
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
    /// The player the restriction binds.
    pub side: Side,
    /// The part of the card that may not be used (A brilliant mood forbids the
    /// action part, R5.11).
    pub part: Part,
    /// The card types it applies to (empty: every type).
    pub types: TypeMask,
}

impl Forbid {
    /// Whether this restriction forbids `side` from using `part` of a card of
    /// type `card_type`.
    pub fn forbids(&self, side: Side, part: Part, card_type: CardType) -> bool {
        self.side == side && self.part == part && self.types.admits(card_type)
    }
}

/// A picture named by an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PictureRef {
    /// A named informant's picture, by its id.
    Named(PictureId),
    /// The informant printed on the card being carried out.
    ThisCard,
}

/// R5.13: pick `count` distinct tokens (one at a time) and move each
/// `steps` toward the actor. `up_to`: the actor may stop early (docs/open-questions.md#q9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveTokens {
    /// The tokens that may be picked.
    pub what: TokenSelector,
    /// The steps each picked token moves toward the actor (R5.13); steps past
    /// the last space are lost.
    pub steps: Amount,
    /// How many distinct tokens are picked and moved, one after another (1 to
    /// 20).
    pub count: u8,
    /// Whether the actor may stop before `count` tokens are moved (`Skip` is
    /// offered, "up to 2", Q9).
    pub up_to: bool,
}

/// Move every matching evidence token on the track (Bob Haldeman).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveAll {
    /// The evidence tokens on the track that move (default: every one).
    pub filter: EvidenceFilter,
    /// The steps each of them moves toward the actor (0 to 99).
    pub steps: u8,
}

/// R5.13 "to space k": pick one token and put it on space `space` of the
/// actor's side (0 = the centre; space = track length gains it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Place {
    /// The tokens that may be picked (one of them is placed).
    pub what: TokenSelector,
    /// The space of the actor's side it goes on: 0 the centre, up to the track
    /// length (where the token is gained, R5.8); a larger number counts as the
    /// last space.
    pub space: u8,
}

/// Put the initiative token and/or every matching evidence token on a
/// space; `flip_up` turns face-down evidence face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlaceAll {
    /// The tokens placed: the initiative token, the momentum token, and the
    /// evidence tokens on the track its evidence filter admits.
    pub what: TokenSelector,
    /// The space of the actor's side they go on, as in [`Place::space`].
    pub space: u8,
    /// Whether face-down evidence placed is turned face up first (otherwise
    /// every token keeps its face).
    pub flip_up: bool,
}

/// Draw one evidence token from the bag and put it on space `space` of the
/// actor's side (docs/open-questions.md#q2: nothing happens with an empty bag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DrawToTrack {
    /// The space of the actor's side the token goes on, as in [`Place::space`].
    pub space: u8,
    /// Whether it lies face up (`false`: face down).
    pub face_up: bool,
}

/// Draw one evidence token from the bag and pin it (R7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DrawAndPin;

/// Take a token off the research track and return it to the bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TrackToBag {
    /// Which evidence tokens on the research track may be picked.
    pub filter: EvidenceFilter,
}

/// Take a token off the evidence board and return it to the bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardToBag {
    /// Which evidence tokens on the evidence board may be picked.
    pub filter: EvidenceFilter,
}

/// Take a token off the research track and pin it (R7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PinFromTrack {
    /// Which evidence tokens on the research track may be picked.
    pub filter: EvidenceFilter,
}

/// Take a token off the evidence board and put it on a track space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardToTrack {
    /// Which evidence tokens on the evidence board may be picked.
    pub filter: EvidenceFilter,
    /// The space of the actor's side it goes on, as in [`Place::space`].
    pub space: u8,
    /// Whether it lies face up on the track (the script API always asks for
    /// face up).
    pub face_up: bool,
}

/// Turn one face-down evidence token on the board face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FlipOnBoard {
    /// Which evidence tokens on the board may be picked (the script API asks
    /// for face-down ones).
    pub filter: EvidenceFilter,
}

/// R5.13: pin a picture from the supply, face up for the Editor, face down for Nixon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PinPicture {
    /// Which picture is pinned: named, or the informant printed on the card.
    pub picture: PictureRef,
}

/// Return a pinned picture to the supply (Deep Throat, docs/open-questions.md#q10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnpinPicture {
    /// Which pinned pictures may be picked: `Some(true)` face-up (recruited)
    /// ones, `Some(false)` face-down ones, `None` either.
    pub face_up: Option<bool>,
}

/// A player discards random cards from hand (docs/open-questions.md#q4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiscardRandom {
    /// The player who discards (the script API: the opponent).
    pub who: Who,
    /// How many cards are discarded, one at a time (0 to 99; fewer when the hand
    /// runs out).
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
    /// The player the restriction binds, relative to the actor.
    pub who: Who,
    /// The part of the card that may not be used.
    pub part: Part,
    /// The card types it applies to (empty: every type).
    pub types: TypeMask,
}

/// Cancel the play this reaction answers; its card goes to `dest` (R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CancelTrigger {
    /// Where the cancelled play's card goes (R6.2: Mitchell sends the Editor's
    /// card to her discard pile; R6.3: a conspirator leaves the game).
    pub dest: Dest,
}

/// Pick a card; the chosen card is remembered for the instructions up to
/// `skip_to`, which is where the program goes on when nothing is chosen.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChooseCard {
    /// The pile the card is chosen from.
    pub zone: Zone,
    /// Whose pile it is, relative to the actor.
    pub who: Who,
    /// Which cards of the pile may be picked.
    pub filter: CardFilter,
    /// Whether the actor may choose none (`Skip` is offered).
    pub optional: bool,
    /// The question put to the player ("Choose a card" unless the script says).
    pub prompt: String,
    /// The index in the program of the first instruction after those for the
    /// chosen card: where the program goes on when nothing is chosen.
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
    /// Where the played card goes: its owner's discard pile or out of the game
    /// (Gambit's alternative, R5.10).
    pub dest: Dest,
}

/// A choice between branches; each option (a label) jumps to its first instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Branch {
    /// The question put to the player.
    pub prompt: String,
    /// Each option's label and the index in the program of its first
    /// instruction.
    pub options: Vec<(String, u16)>,
}

/// Go on at another instruction (the end of a branch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Jump {
    /// The index in the program of the instruction to go on at.
    pub to: u16,
}

/// One effect primitive. Each names the rule it implements; the VM carries it
/// out "fully where possible" and skips what cannot be done (R5.9). Every
/// variant wraps a struct of its own name: that struct is the instruction's
/// one home in the VM (`game::engine::vm`), holding how it runs, what it
/// offers to pick, how a pick is applied and what it asks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Instr {
    /// Move one or more tokens on the research track by a number of steps (R5.13).
    Move(MoveTokens),
    /// Move every matching evidence token on the track (Bob Haldeman).
    MoveAll(MoveAll),
    /// Put one token on a given space (R5.13 "to space k").
    Place(Place),
    /// Put every selected token on a space: all matching evidence on the
    /// track (The Saturday Night Massacre).
    PlaceAll(PlaceAll),
    /// Draw an evidence token from the bag onto the track (Q2).
    DrawToTrack(DrawToTrack),
    /// Draw an evidence token from the bag and pin it (R7.6, R9.2).
    DrawAndPin(DrawAndPin),
    /// Return an evidence token from the track to the bag (Gordon Liddy).
    TrackToBag(TrackToBag),
    /// Return an evidence token from the board to the bag (R9.2, Watergate
    /// Hearings).
    BoardToBag(BoardToBag),
    /// Take an evidence token off the track and pin it (R7.6, The Rose Mary
    /// Stretch).
    PinFromTrack(PinFromTrack),
    /// Take an evidence token off the board onto the track (Carl Bernstein).
    BoardToTrack(BoardToTrack),
    /// Turn a face-down evidence token on the board face up (R9.2, Impeachment).
    FlipOnBoard(FlipOnBoard),
    /// Pin a picture from the supply (R5.13).
    PinPicture(PinPicture),
    /// Return a pinned picture to the supply (Deep Throat, Q10).
    UnpinPicture(UnpinPicture),
    /// A player discards cards at random (Chuck Colson, Q4).
    DiscardRandom(DiscardRandom),
    /// The actor takes another turn (Chuck Colson, Q4).
    ExtraTurn(ExtraTurn),
    /// The card phase ends at once (Cancer on the presidency).
    EndCardPhase(EndCardPhase),
    /// Draw the top card of the deck and play it (Howard Hunt, Q3).
    PlayTopCard(PlayTopCard),
    /// A restriction for the rest of the round (A brilliant mood, R5.11).
    Forbid(Restrict),
    /// Cancel the play a reaction answers (R6.2, R6.3, R6.6).
    CancelTrigger(CancelTrigger),
    /// Choose a card for the instructions that follow (The system works, Q7).
    ChooseCard(ChooseCard),
    /// Remove the chosen card from the game.
    RemoveChosen(RemoveChosen),
    /// Carry out the chosen card's action part (Q7).
    PerformChosen(PerformChosen),
    /// Send the played card somewhere other than where its type sends it
    /// (R5.10).
    SetDestination(SetDestination),
    /// The actor chooses one of several branches (`one_of`, R5.9).
    Branch(Branch),
    /// Go on at another instruction.
    Jump(Jump),
}

/// A compiled card action.
pub type Program = Vec<Instr>;
