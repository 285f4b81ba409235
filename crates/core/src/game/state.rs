//! The whole game as plain data: every token, card and picture in exactly one
//! place, the seeded generator, and the engine's stack of frames (card plays
//! in progress, running card programs, pins, the evaluation). Cloning it is
//! cheap (small inline vectors, no shared pointers on the hot path) and it
//! serializes as it is, so any position, mid-action included, can be saved,
//! searched and replayed.

use crate::game::frame_stack::FrameStack;
use crate::game::inline_list::InlineList;
use crate::game::model::*;
use crate::game::program::{Forbid, Program};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The seeded generator of a named algorithm (PCG-64 MCG), so a seed means the
/// same game on any machine. All randomness goes through [`State::below`].
pub type GameRng = Pcg64Mcg;

/// The generator's state, which `rand_pcg` keeps private but serializes:
/// read back from its RON form (`(state:N)`), the one public view of it.
/// A saved position writes it; a position from outside has it checked
/// (`Setup::problems`: an MCG's state must be odd).
pub fn generator_state(rng: &GameRng) -> u128 {
    let text = ron::to_string(rng).unwrap_or_default();
    let digits: String = text.chars().filter(|c| c.is_ascii_digit()).collect();
    digits.parse::<u128>().unwrap_or(0)
}

/// Where an evidence token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EvLoc {
    /// In the box, outside the game (docs/open-questions.md#d4).
    Reserve,
    /// In the bag (R2.5).
    Bag,
    /// On the research track: position (positive = Editor's side) and face.
    Track {
        /// The space: 0 the centre, 1 up to the track length less one on the
        /// Editor's side, negative on Nixon's (the last space gains it, R5.8).
        pos: i8,
        /// Whether it lies face up (R4.2 draws face down, R5.13 turns up).
        face_up: bool,
        /// The colours everyone knows a face-down token lacks: the Editor
        /// asked for each of them while it lay face down and there was none
        /// (R5.6). Always none while face up. A search that deals the hidden
        /// tokens again keeps them so (`View::determinize`). Free in the
        /// state's size: the compiler keeps `EvLoc` in 3 bytes by putting
        /// its variant in `face_up`'s unused values.
        ruled_out: Colours,
    },
    /// Pinned on the evidence board (R7.6).
    Board {
        /// The evidence space it is pinned on.
        space: SpaceId,
        /// Face up when the Editor pinned it, face down when Nixon did.
        face_up: bool,
    },
    /// Gained or drawn and waiting to be pinned (a `Pin` frame holds it).
    Held,
}

// The state's 720 bytes hold 36 of these: a fourth byte would cost 36.
const _: () = assert!(std::mem::size_of::<EvLoc>() == 3);

impl EvLoc {
    /// On the research track at `pos`, face up or face down, nothing
    /// known of its colours beyond what the face shows.
    #[inline]
    pub fn on_track(pos: i8, face_up: bool) -> EvLoc {
        EvLoc::Track {
            pos,
            face_up,
            ruled_out: Colours::NONE,
        }
    }
}

/// Where a picture tile is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PicLoc {
    /// The potential informant supply (R2.4).
    Supply,
    /// On its informant space: face up (recruited by the Editor) or face down (Nixon).
    Pinned {
        /// Face up: recruited by the Editor; face down: secured by Nixon.
        face_up: bool,
    },
}

/// The phase of the round (R3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// The initial phase: cards dealt, evidence drawn onto 0 (R4).
    Initial,
    /// The card phase: turns until both hands are empty (R5, R6).
    Cards,
    /// The evaluation phase (R7).
    Evaluation,
    /// The game is over (R8).
    Over,
}

/// The token a value play moves, once chosen (internal: holds the token id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Moving {
    /// The initiative token.
    Initiative,
    /// The momentum token.
    Momentum,
    /// This evidence token.
    Evidence(TokenId),
}

/// Where a card play stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayStage {
    /// A card drawn by an action (Howard Hunt) waits for its part to be chosen.
    ChoosePart,
    /// Value: the player picks a token (or, as the Editor, asks for a colour).
    ChooseTarget,
    /// Value, R5.6: Nixon picks which face-down token of this colour to reveal.
    Reveal(Colour),
    /// Value, R5.6: nothing of the named colour was face down; the fallback is
    /// limited to this colour (the erratum).
    Locked(Colour),
    /// The opponent may react (R6).
    Window,
    /// Ready to resolve: cancelled, moved, or its program pushed.
    Resolve,
    /// The action's program is running above this frame.
    Running,
}

/// How a card would be played, for its action's requirement (R5.11) and the
/// reaction rule (R5.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayedAs {
    /// On a turn of its own (R5.1), an extra turn included.
    Turn,
    /// As a reaction, which also counts as a turn (R6.1).
    Reaction,
    /// Within the turn in progress: a card played by another card's action
    /// (Howard Hunt's drawn card, the action The system works carries out).
    WithinTurn,
}

/// A card being played, from the moment it leaves the hand until it lands in
/// a discard pile or out of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayFrame {
    /// The card played.
    pub card: CardId,
    /// Who plays it.
    pub player: Side,
    /// The part used; `None` while a drawn card's part is not chosen yet.
    pub part: Option<Part>,
    /// Where the play stands.
    pub stage: PlayStage,
    /// The token a value play moves, once chosen.
    pub target: Option<Moving>,
    /// Set by a reaction: the play does nothing and its card goes there (R6.6).
    pub cancelled: Option<Dest>,
    /// For a reaction: the stack index of the play it answers.
    pub reacting_to: Option<u8>,
    /// Set by the program: where the card goes instead of its type's place (Gambit).
    pub dest: Option<Dest>,
}

/// Which program a running frame executes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProgRef {
    /// A card's action, computed at load.
    Card(CardId),
    /// A momentum-card space's instruction, computed at load.
    Space(Side, u8),
    /// A program computed at play time by a script that reads the game.
    Dynamic(Arc<Program>),
}

/// Where a running frame's program comes from, without the program a
/// script computed at play time (`RunFrame::shared` holds that).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::game) enum ProgSource {
    Card(CardId),
    Space(Side, u8),
    Dynamic,
}

/// A card program being carried out. Its program is kept in two parts
/// (`source` and, for a program computed at play time, `shared`) so that
/// the frame's small fields fill the word beside the pointer: a whole
/// `ProgRef` takes 16 bytes, half of them padding, and made every frame
/// 40 bytes instead of 32 (the state holds seven). `prog()` puts it back
/// together; saved, a frame is written with its `prog` as before.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "RunFrameData", into = "RunFrameData")]
pub struct RunFrame {
    pub(in crate::game) shared: Option<Arc<Program>>,
    pub(in crate::game) source: ProgSource,
    /// The index in the program of the instruction to carry out next.
    pub pc: u16,
    /// The player carrying out the program: steps go toward this side
    /// (R5.13).
    pub actor: Side,
    /// The card whose action this is (for `pin_card_picture`).
    pub card: Option<CardId>,
    /// Stack index of the play this program belongs to, if any.
    pub play: Option<u8>,
    /// Progress inside the current instruction (tokens moved so far, cards discarded…).
    pub done: u8,
    /// Tokens already picked by the current instruction (distinct tokens, docs/open-questions.md#q9).
    /// At most its count less one (the shipped scripts move at most 2);
    /// 8 inline is the least an `InlineList` of bytes holds.
    pub picked: InlineList<TokenId, 8>,
    /// The card picked by the last `ChooseCard`.
    pub chosen: Option<CardId>,
}

impl RunFrame {
    /// A frame about to run `prog` from its start.
    pub fn new(prog: ProgRef, actor: Side, card: Option<CardId>, play: Option<u8>) -> RunFrame {
        let (source, shared) = match prog {
            ProgRef::Card(c) => (ProgSource::Card(c), None),
            ProgRef::Space(side, i) => (ProgSource::Space(side, i), None),
            ProgRef::Dynamic(p) => (ProgSource::Dynamic, Some(p)),
        };
        RunFrame {
            shared,
            source,
            pc: 0,
            actor,
            card,
            play,
            done: 0,
            picked: Default::default(),
            chosen: None,
        }
    }

    /// The program this frame runs.
    pub fn prog(&self) -> ProgRef {
        match (self.source, &self.shared) {
            (ProgSource::Card(c), _) => ProgRef::Card(c),
            (ProgSource::Space(side, i), _) => ProgRef::Space(side, i),
            (ProgSource::Dynamic, Some(p)) => ProgRef::Dynamic(p.clone()),
            (ProgSource::Dynamic, None) => unreachable!("`RunFrame::new` keeps a dynamic program"),
        }
    }
}

/// A running frame as it is written: its program whole.
#[derive(Serialize, Deserialize)]
#[serde(rename = "RunFrame")]
struct RunFrameData {
    prog: ProgRef,
    pc: u16,
    actor: Side,
    card: Option<CardId>,
    play: Option<u8>,
    done: u8,
    picked: InlineList<TokenId, 8>,
    chosen: Option<CardId>,
}

impl From<RunFrameData> for RunFrame {
    fn from(d: RunFrameData) -> RunFrame {
        RunFrame {
            pc: d.pc,
            done: d.done,
            picked: d.picked,
            chosen: d.chosen,
            ..RunFrame::new(d.prog, d.actor, d.card, d.play)
        }
    }
}

impl From<RunFrame> for RunFrameData {
    fn from(f: RunFrame) -> RunFrameData {
        RunFrameData {
            prog: f.prog(),
            pc: f.pc,
            actor: f.actor,
            card: f.card,
            play: f.play,
            done: f.done,
            picked: f.picked,
            chosen: f.chosen,
        }
    }
}

/// The engine's work in progress, innermost last.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Frame {
    /// The initial phase (R4): cards dealt, then evidence drawn one by one.
    Setup {
        /// Whether the cards have been dealt (R4.1).
        dealt: bool,
        /// With explicit deals, the cards dealt so far (one chance decision
        /// each, the initiative holder's first); 0 otherwise.
        cards_dealt: u8,
        /// Evidence tokens still to draw onto space 0 (R4.2).
        evidence_left: u8,
    },
    /// A card being played.
    Play(PlayFrame),
    /// A card program being carried out.
    Run(RunFrame),
    /// A gained or drawn evidence token waiting for its space (R7.6).
    Pin {
        /// The token to pin.
        token: TokenId,
        /// Who pins it: face up for the Editor, face down for Nixon.
        pinner: Side,
    },
    /// The evaluation phase (R7), at step `step`.
    Evaluation {
        /// The step to carry out next.
        step: EvalStep,
    },
}

/// The steps of the evaluation phase (R7), in their order. Written as their
/// number (1..=7) wherever a state is saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub enum EvalStep {
    /// R7.1: evidence on the 0 space goes back to the bag.
    ZeroToBag = 1,
    /// R7.2: the initiative goes to the side it is on.
    Initiative = 2,
    /// R7.3: the momentum token goes to the side it is on.
    Momentum = 3,
    /// R7.4: the initiative token and a new momentum token on 0.
    NewTokens = 4,
    /// R7.5: the initiative holder pins the evidence on their side.
    HolderPins = 5,
    /// R7.5: then the other player pins theirs.
    OtherPins = 6,
    /// The phase is over.
    Done = 7,
}

impl EvalStep {
    /// The first step, R7.1.
    pub const FIRST: EvalStep = EvalStep::ZeroToBag;

    /// The step's number, 1..=7.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The step numbered `n` (1..=7).
    pub fn from_number(n: u8) -> Option<EvalStep> {
        Some(match n {
            1 => EvalStep::ZeroToBag,
            2 => EvalStep::Initiative,
            3 => EvalStep::Momentum,
            4 => EvalStep::NewTokens,
            5 => EvalStep::HolderPins,
            6 => EvalStep::OtherPins,
            7 => EvalStep::Done,
            _ => return None,
        })
    }

    /// The step after this one (`Done` stays `Done`).
    pub fn next(self) -> EvalStep {
        EvalStep::from_number(self.number() + 1).unwrap_or(EvalStep::Done)
    }
}

/// Hashed as its number, like the `u8` it replaces (so position keys stay).
impl std::hash::Hash for EvalStep {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.number().hash(h)
    }
}

impl From<EvalStep> for u8 {
    fn from(s: EvalStep) -> u8 {
        s.number()
    }
}

impl TryFrom<u8> for EvalStep {
    type Error = String;
    fn try_from(n: u8) -> Result<EvalStep, String> {
        EvalStep::from_number(n).ok_or_else(|| format!("evaluation step {n}: expected 1..=7"))
    }
}

/// A deck or a discard pile. The inline sizes of the state's lists are
/// chosen to hold what the shipped game can put there (so an engine step
/// never allocates) within the state's 720 bytes; a bigger game spills to
/// the heap and plays the same. Each side has 20 cards in the shipped game.
pub type Pile = InlineList<CardId, 24>;

/// The bag's tokens.
pub type Bag = InlineList<TokenId, 36>;

/// A new game's lists as R2 lays them out before anything is shuffled:
/// where each token and picture starts, each side's deck in card order
/// and the bag's tokens in id order. Built once when the rules are
/// complete (`StartingLists::of`, beside the card traits) and copied by
/// every game's setup, which then shuffles the decks and the bag: built
/// item by item, they were about half of a new game's setup (issue 16).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartingLists {
    pub(in crate::game) evidence: InlineList<EvLoc, 36>,
    pub(in crate::game) pictures: InlineList<PicLoc, 16>,
    /// `State::supply_mask` of `pictures`.
    pub(in crate::game) pictures_in_supply: u64,
    pub(in crate::game) decks: BySide<Pile>,
    pub(in crate::game) bag: Bag,
}

impl StartingLists {
    /// The lists of a game played with `r`'s cards, tokens and pictures.
    pub fn of(r: &crate::game::rules::Rules) -> StartingLists {
        let pictures: InlineList<PicLoc, 16> = r.pictures.iter().map(|_| PicLoc::Supply).collect();
        StartingLists {
            // R2.5: the bag's tokens; the rest wait in the reserve (D4).
            evidence: r
                .evidence
                .iter()
                .map(|t| if t.in_bag { EvLoc::Bag } else { EvLoc::Reserve })
                .collect(),
            pictures_in_supply: State::supply_mask(&pictures),
            pictures,
            // R2.1: each player's cards, to be shuffled into a deck.
            decks: BySide::from_fn(|side| r.cards_of(side).collect()),
            bag: (0..r.evidence.len())
                .filter(|i| r.evidence[*i].in_bag)
                .map(|i| TokenId(i as u8))
                .collect(),
        }
    }
}

/// A whole game. Its fields are the rules core's own (the engine works on
/// them directly); everyone else reads them through the accessors below and
/// builds or changes a position through a [`crate::game::setup::Setup`].
/// It is not deserializable: a position read from outside comes in through
/// `State::from_setup`, which checks it.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct State {
    pub(in crate::game) rng: GameRng,
    /// Random events stop as decisions of `Actor::Chance` (for the solver)
    /// instead of being drawn from `rng`.
    pub(in crate::game) explicit_chance: bool,
    /// With `explicit_chance`: every card drawn from a deck is chance's
    /// decision too (which of the deck's cards), so a deck's order never
    /// matters and the generator is never used (the OpenSpiel game's view).
    pub(in crate::game) explicit_deals: bool,
    pub(in crate::game) round: u16,
    pub(in crate::game) phase: Phase,
    /// Who holds the initiative (the initiative card's direction, R7.2).
    pub(in crate::game) initiative: Side,
    /// The initiative token's track position; `None` once gained this round.
    pub(in crate::game) initiative_token: Option<i8>,
    /// The momentum token's track position; `None` when not on the track.
    pub(in crate::game) momentum_token: Option<i8>,
    pub(in crate::game) momentum_supply: u8,
    /// Momentum tokens on each side's momentum card, by `Side::index()`.
    pub(in crate::game) momentum_cards: BySide<u8>,
    pub(in crate::game) momentum_removed: u8,
    /// Where each evidence token is, by `TokenId`.
    pub(in crate::game) evidence: InlineList<EvLoc, 36>,
    /// The board spaces holding evidence, and those holding it face up:
    /// what `evidence` says, kept as it changes (`set_evidence`) so that
    /// the pin spaces and the connection walk need no scan of every token.
    #[serde(skip)]
    pub(in crate::game) board_taken: SpaceSet,
    #[serde(skip)]
    pub(in crate::game) board_face_up: SpaceSet,
    /// The evidence tokens lying face down on the research track, as bits by
    /// `TokenId` (the loader allows at most 64 tokens): what `evidence`
    /// says, kept as it changes (`set_evidence`), so that a value play's
    /// targets are found by masks (`value_target_set`), not by a look at
    /// each token's place.
    #[serde(skip)]
    pub(in crate::game) track_face_down: u64,
    /// The evidence tokens on the research track in the order they arrived:
    /// choices name a token by its slot here, never by its id, so they reveal
    /// nothing about face-down tokens.
    pub(in crate::game) track: InlineList<TokenId, 16>,
    /// The bag, drawn from the end.
    pub(in crate::game) bag: Bag,
    /// Where each picture is, by `PictureId`.
    pub(in crate::game) pictures: InlineList<PicLoc, 16>,
    /// Bit `p` set when picture `p` (below 64) is in the supply: what
    /// `pictures` says, kept as it changes (`set_picture`) so that a turn's
    /// options test a recruit's requirement with one bit.
    #[serde(skip)]
    pub(in crate::game) pictures_in_supply: u64,
    pub(in crate::game) hands: BySide<InlineList<CardId, 16>>,
    /// Draw decks, drawn from the end.
    pub(in crate::game) decks: BySide<Pile>,
    pub(in crate::game) discards: BySide<Pile>,
    /// Out of the game: every event card played may end here. Room for
    /// every card of the shipped game (40): long games removed up to 31.
    pub(in crate::game) removed: InlineList<CardId, 40>,
    /// Whose turn it is when no play is in progress.
    pub(in crate::game) turn: Side,
    /// Cards each side has played this round (reactions count, R6.1).
    pub(in crate::game) turns_played: BySide<u8>,
    /// Restrictions in force for the rest of the round.
    pub(in crate::game) forbidden: InlineList<Forbid, 5>,
    /// Seven frames inline (the top and six below it): 100,000 random
    /// games of the shipped game reached six at a decision (a play, its
    /// program, a card that program plays, a reaction to that card, the
    /// reaction's program, a pin), and a few in 300,000 reach seven for a
    /// moment within a step (with six inline, those made 62 heap
    /// allocations); deeper nesting spills to the heap.
    pub(in crate::game) stack: FrameStack,
    pub(in crate::game) outcome: Option<Outcome>,
}

/// A uniform number in `0..n` (n > 0) from a game's generator, by Lemire's
/// method on 64-bit outputs: owned here so a seed gives the same game
/// whatever version of `rand` is linked.
pub fn below(rng: &mut GameRng, n: usize) -> usize {
    use rand::Rng;
    debug_assert!(n > 0);
    let n = n as u64;
    loop {
        let x = rng.next_u64();
        let m = (x as u128) * (n as u128);
        let low = m as u64;
        // The threshold `2^64 mod n` is below n: only a low word below n
        // needs the division to decide (same outcomes, rarely a division).
        if low >= n || low >= n.wrapping_neg() % n {
            return (m >> 64) as usize;
        }
    }
}

/// Fisher–Yates shuffle with [`below`].
pub fn shuffle<T>(rng: &mut GameRng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

/// Reading a game: one accessor per field, in the field's own terms.
impl State {
    /// The generator (everything random from here on comes from it).
    #[inline]
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Whether random events stop as decisions of `Actor::Chance`.
    #[inline]
    pub fn explicit_chance(&self) -> bool {
        self.explicit_chance
    }

    /// Random events become decisions of chance (the solver's and a
    /// puzzle's view) or are drawn from the generator again.
    #[inline]
    pub fn set_explicit_chance(&mut self, on: bool) {
        self.explicit_chance = on;
        if !on {
            self.explicit_deals = false;
        }
    }

    /// Whether every card drawn from a deck is chance's decision as well.
    #[inline]
    pub fn explicit_deals(&self) -> bool {
        self.explicit_deals
    }

    /// Every random event, card draws included, becomes a decision of
    /// chance (`on`), or only the ones of `set_explicit_chance` (`!on`).
    /// The deck's order then never matters: each card drawn is chosen
    /// among the deck's cards, each as likely, as from a shuffled deck.
    #[inline]
    pub fn set_explicit_deals(&mut self, on: bool) {
        self.explicit_deals = on;
        if on {
            self.explicit_chance = true;
        }
    }

    /// The round's number, from 1 (R3).
    #[inline]
    pub fn round(&self) -> u16 {
        self.round
    }

    /// The phase of the round.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Who holds the initiative (R7.2).
    #[inline]
    pub fn initiative(&self) -> Side {
        self.initiative
    }

    /// The initiative token's track position; `None` once gained this round.
    #[inline]
    pub fn initiative_token(&self) -> Option<i8> {
        self.initiative_token
    }

    /// The momentum token's track position; `None` when not on the track.
    #[inline]
    pub fn momentum_token(&self) -> Option<i8> {
        self.momentum_token
    }

    /// Momentum tokens left in the supply (R2.3, R7.4).
    #[inline]
    pub fn momentum_supply(&self) -> u8 {
        self.momentum_supply
    }

    /// Momentum tokens on each side's momentum card.
    #[inline]
    pub fn momentum_cards(&self) -> BySide<u8> {
        self.momentum_cards
    }

    /// Momentum tokens out of the game: gained by the Editor with no free
    /// space on her card (R7.3).
    #[inline]
    pub fn momentum_removed(&self) -> u8 {
        self.momentum_removed
    }

    /// Where each evidence token is, by `TokenId`.
    #[inline]
    pub fn evidence(&self) -> &[EvLoc] {
        &self.evidence
    }

    /// The evidence on the research track by slot, in the order it arrived.
    #[inline]
    pub fn track(&self) -> &[TokenId] {
        &self.track
    }

    /// The bag, drawn from the end.
    #[inline]
    pub fn bag(&self) -> &[TokenId] {
        &self.bag
    }

    /// The board's spaces holding evidence, and those of them face up
    /// (kept as tokens move: no scan of every token to find them).
    #[inline]
    pub fn board_evidence(&self) -> (SpaceSet, SpaceSet) {
        (self.board_taken, self.board_face_up)
    }

    /// Where each picture is, by `PictureId`.
    #[inline]
    pub fn pictures(&self) -> &[PicLoc] {
        &self.pictures
    }

    /// A side's hand.
    #[inline]
    pub fn hand(&self, side: Side) -> &[CardId] {
        &self.hands[side]
    }

    /// A side's draw deck, drawn from the end.
    #[inline]
    pub fn deck(&self, side: Side) -> &[CardId] {
        &self.decks[side]
    }

    /// A side's discard pile, the latest last.
    #[inline]
    pub fn discards(&self, side: Side) -> &[CardId] {
        &self.discards[side]
    }

    /// Cards out of the game.
    #[inline]
    pub fn removed(&self) -> &[CardId] {
        &self.removed
    }

    /// Whose turn it is when no play is in progress.
    #[inline]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Cards each side has played this round (reactions count, R6.1).
    #[inline]
    pub fn turns_played(&self) -> BySide<u8> {
        self.turns_played
    }

    /// Restrictions in force for the rest of the round.
    #[inline]
    pub fn forbidden(&self) -> &[Forbid] {
        &self.forbidden
    }

    /// The engine's work in progress, innermost last.
    #[inline]
    pub fn stack(&self) -> &FrameStack {
        &self.stack
    }

    /// Who won and how, once the game is over (R8).
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

/// A state that holds nothing on the heap (every list inline, no program
/// computed at play time on its stack: every game of the shipped data) is
/// copied as its bytes, one block; otherwise field by field, a list of
/// plain values held inline as its bytes (`InlineList::clone`), the stack
/// frame by frame. Search clones a state at every iteration: copied
/// field by field it took about 500 instructions, most of them asking
/// each list whether it spilled (issue 38).
impl Clone for State {
    #[inline]
    fn clone(&self) -> State {
        if !self.owns_heap() {
            // SAFETY: nothing in the state points to memory it owns (no
            // list spilled, no shared program, `owns_heap`), so a copy of
            // its bytes is a state of its own that frees nothing twice:
            // every field is plain data, inline.
            return unsafe { std::ptr::read(self) };
        }
        self.clone_fields()
    }
}

impl State {
    /// Whether any part of the state lives on the heap: a list that
    /// spilled, the stack's frames below the top past their inline room,
    /// or a running frame's shared program or spilled list. Tested with
    /// no early exit (a branch a list, never taken in the shipped game).
    #[inline]
    fn owns_heap(&self) -> bool {
        let lists = self.evidence.spilled()
            | self.track.spilled()
            | self.bag.spilled()
            | self.pictures.spilled()
            | self.hands.editor.spilled()
            | self.hands.nixon.spilled()
            | self.decks.editor.spilled()
            | self.decks.nixon.spilled()
            | self.discards.editor.spilled()
            | self.discards.nixon.spilled()
            | self.removed.spilled()
            | self.forbidden.spilled();
        lists || self.stack.owns_heap()
    }

    /// `clone` field by field.
    #[inline(never)]
    fn clone_fields(&self) -> State {
        State {
            rng: self.rng.clone(),
            explicit_chance: self.explicit_chance,
            explicit_deals: self.explicit_deals,
            round: self.round,
            phase: self.phase,
            initiative: self.initiative,
            initiative_token: self.initiative_token,
            momentum_token: self.momentum_token,
            momentum_supply: self.momentum_supply,
            momentum_cards: self.momentum_cards,
            momentum_removed: self.momentum_removed,
            evidence: self.evidence.clone(),
            board_taken: self.board_taken,
            board_face_up: self.board_face_up,
            track_face_down: self.track_face_down,
            track: self.track.clone(),
            bag: self.bag.clone(),
            pictures: self.pictures.clone(),
            pictures_in_supply: self.pictures_in_supply,
            hands: self.hands.clone(),
            decks: self.decks.clone(),
            discards: self.discards.clone(),
            removed: self.removed.clone(),
            turn: self.turn,
            turns_played: self.turns_played,
            forbidden: self.forbidden.clone(),
            stack: self.stack.clone(),
            outcome: self.outcome,
        }
    }
}

impl State {
    /// Puts evidence token `t` at `loc`, keeping the board's sets and the
    /// track's masks.
    #[inline]
    pub(in crate::game) fn set_evidence(&mut self, t: TokenId, loc: EvLoc) {
        // The list is indexed once (each index asks whether it spilled).
        let old = std::mem::replace(&mut self.evidence[t.index()], loc);
        // The track's mask with no branch on the place or the face: a
        // token that moves on the track is set here at every step.
        let down = matches!(loc, EvLoc::Track { face_up: false, .. });
        let id = t.0 & 63;
        self.track_face_down = self.track_face_down & !(1 << id) | u64::from(down) << id;
        if let EvLoc::Board { space, .. } = old {
            self.board_taken.remove(space);
            self.board_face_up.remove(space);
        }
        if let EvLoc::Board { space, face_up } = loc {
            self.board_taken.insert(space);
            if face_up {
                self.board_face_up.insert(space);
            }
        }
    }

    /// R5.6: the Editor asked for `colour` and no face-down token on the
    /// track had it. Everyone heard the answer, so each of them is known to
    /// lack it for as long as it stays face down there.
    pub(in crate::game) fn rule_out(&mut self, colour: Colour) {
        let mut down = self.track_face_down;
        while down != 0 {
            let id = down.trailing_zeros() as usize;
            down &= down - 1;
            if let EvLoc::Track { ruled_out, .. } = &mut self.evidence[id] {
                ruled_out.0 |= colour.bit();
            }
        }
    }

    /// Puts picture `p` at `loc`, keeping the mask of pictures in the supply.
    #[inline]
    pub(in crate::game) fn set_picture(&mut self, p: PictureId, loc: PicLoc) {
        self.pictures[p.index()] = loc;
        if p.index() < 64 {
            let bit = 1u64 << p.index();
            if loc == PicLoc::Supply {
                self.pictures_in_supply |= bit;
            } else {
                self.pictures_in_supply &= !bit;
            }
        }
    }

    /// The mask of pictures in the supply as `pictures` says (after
    /// building a state): bit `p` for picture `p` below 64.
    pub(in crate::game) fn supply_mask(pictures: &[PicLoc]) -> u64 {
        pictures
            .iter()
            .take(64)
            .enumerate()
            .filter(|(_, loc)| **loc == PicLoc::Supply)
            .fold(0, |mask, (p, _)| mask | 1 << p)
    }

    /// The board's sets as `evidence` says (after building a state).
    pub(in crate::game) fn board_sets(evidence: &[EvLoc]) -> (SpaceSet, SpaceSet) {
        let mut taken = SpaceSet::EMPTY;
        let mut face_up = SpaceSet::EMPTY;
        for loc in evidence {
            if let EvLoc::Board { space, face_up: up } = loc {
                taken.insert(*space);
                if *up {
                    face_up.insert(*space);
                }
            }
        }
        (taken, face_up)
    }

    /// The track's mask as `evidence` says (after building a state): the
    /// tokens lying face down on it, by `TokenId`.
    pub(in crate::game) fn track_face_down_of(evidence: &[EvLoc]) -> u64 {
        let mut down = 0u64;
        for (i, loc) in evidence.iter().enumerate().take(64) {
            down |= u64::from(matches!(loc, EvLoc::Track { face_up: false, .. })) << i;
        }
        down
    }

    /// A uniform number in `0..n` (n > 0) from the game's generator ([`below`]).
    pub fn below(&mut self, n: usize) -> usize {
        below(&mut self.rng, n)
    }

    /// Fisher–Yates shuffle with [`State::below`].
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        shuffle(&mut self.rng, items)
    }

    /// Whether the game is over (R8.4).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The evidence token in research-track slot `slot`.
    #[inline]
    pub fn track_token(&self, slot: u8) -> Option<TokenId> {
        self.track.get(slot as usize).copied()
    }

    /// The slot of a token on the research track.
    pub fn slot_of(&self, t: TokenId) -> Option<u8> {
        self.track.iter().position(|x| *x == t).map(|i| i as u8)
    }

    /// Position and face of a token on the track.
    #[inline]
    pub fn on_track(&self, t: TokenId) -> Option<(i8, bool)> {
        match self.evidence[t.index()] {
            EvLoc::Track { pos, face_up, .. } => Some((pos, face_up)),
            _ => None,
        }
    }

    /// The colours a face-down token on the track is known to lack (R5.6:
    /// the Editor asked for them in vain while it lay there); none for
    /// any other token.
    #[inline]
    pub fn ruled_out(&self, t: TokenId) -> Colours {
        match self.evidence[t.index()] {
            EvLoc::Track { ruled_out, .. } => ruled_out,
            _ => Colours::NONE,
        }
    }

    /// The token on a board space, with its face.
    pub fn board_token(&self, space: SpaceId) -> Option<(TokenId, bool)> {
        self.evidence.iter().enumerate().find_map(|(i, l)| match l {
            EvLoc::Board { space: s, face_up } if *s == space => Some((TokenId(i as u8), *face_up)),
            _ => None,
        })
    }

    /// Where a player card is, for checks and displays.
    pub fn card_place(&self, c: CardId) -> CardPlace {
        for side in Side::BOTH {
            if self.hands[side].contains(&c) {
                return CardPlace::Hand(side);
            }
            if self.decks[side].contains(&c) {
                return CardPlace::Deck(side);
            }
            if self.discards[side].contains(&c) {
                return CardPlace::Discard(side);
            }
        }
        if self.removed.contains(&c) {
            return CardPlace::Removed;
        }
        if self
            .stack
            .iter()
            .any(|f| matches!(f, Frame::Play(p) if p.card == c))
        {
            return CardPlace::InPlay;
        }
        CardPlace::Nowhere
    }
}

/// Where a player card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardPlace {
    /// In this side's hand.
    Hand(Side),
    /// In this side's draw deck.
    Deck(Side),
    /// In this side's discard pile.
    Discard(Side),
    /// Out of the game.
    Removed,
    /// Being played (on the engine's stack).
    InPlay,
    /// In none of these places: never so in a sound position
    /// (`game::invariants::conservation` checks).
    Nowhere,
}

impl State {
    /// Puts a frame on the engine's stack, built by `make` in its place
    /// (`FrameStack::push_with` says why).
    #[inline(always)]
    pub(crate) fn push_frame(&mut self, make: impl FnOnce() -> Frame) {
        self.stack.push_with(make);
    }
}

impl State {
    /// A key for transposition tables: every field that decides the game's
    /// future under explicit chance. The generator and the bag's order are
    /// left out (draws are chance decisions over the bag's contents then).
    pub fn position_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.round.hash(&mut h);
        self.phase.hash(&mut h);
        self.initiative.hash(&mut h);
        self.initiative_token.hash(&mut h);
        self.momentum_token.hash(&mut h);
        self.momentum_supply.hash(&mut h);
        self.momentum_cards.hash(&mut h);
        self.momentum_removed.hash(&mut h);
        self.evidence.hash(&mut h);
        self.track.hash(&mut h);
        let mut bag: Bag = self.bag.clone();
        bag.sort();
        bag.hash(&mut h);
        self.pictures.hash(&mut h);
        for side in Side::BOTH {
            let mut hand = self.hands[side].clone();
            hand.sort();
            hand.hash(&mut h);
            self.decks[side].hash(&mut h);
            let mut pile = self.discards[side].clone();
            pile.sort();
            pile.hash(&mut h);
        }
        let mut removed = self.removed.clone();
        removed.sort();
        removed.hash(&mut h);
        self.turn.hash(&mut h);
        self.turns_played.hash(&mut h);
        self.forbidden.hash(&mut h);
        self.stack.hash(&mut h);
        self.outcome.hash(&mut h);
        h.finish()
    }
}

impl State {
    /// Bytes a clone copies on the heap (inline vectors that spilled, and
    /// frames' spilled lists); shared programs are not copied and not counted.
    pub fn heap_bytes(&self) -> usize {
        fn spilled<T: Copy, const N: usize>(v: &InlineList<T, N>) -> usize {
            if v.spilled() {
                v.capacity() * std::mem::size_of::<T>()
            } else {
                0
            }
        }
        let mut n = spilled(&self.evidence)
            + spilled(&self.track)
            + spilled(&self.bag)
            + spilled(&self.pictures)
            + spilled(&self.removed)
            + spilled(&self.forbidden);
        n += self.stack.heap_bytes();
        for side in Side::BOTH {
            n += spilled(&self.hands[side])
                + spilled(&self.decks[side])
                + spilled(&self.discards[side]);
        }
        for f in &self.stack {
            if let Frame::Run(r) = f {
                n += spilled(&r.picked);
            }
        }
        n
    }
}

#[cfg(test)]
impl State {
    /// A state with `tokens` evidence tokens in the reserve and nothing
    /// else (for tests of the core's bookkeeping without a card set).
    pub(in crate::game) fn bare(tokens: usize) -> State {
        use rand::SeedableRng;
        State {
            rng: GameRng::seed_from_u64(0),
            explicit_chance: false,
            explicit_deals: false,
            round: 1,
            phase: Phase::Cards,
            initiative: Side::Editor,
            initiative_token: Some(0),
            momentum_token: None,
            momentum_supply: 0,
            momentum_cards: BySide::default(),
            momentum_removed: 0,
            evidence: (0..tokens).map(|_| EvLoc::Reserve).collect(),
            board_taken: SpaceSet::EMPTY,
            board_face_up: SpaceSet::EMPTY,
            track_face_down: 0,
            track: Default::default(),
            bag: Default::default(),
            pictures: Default::default(),
            pictures_in_supply: 0,
            hands: Default::default(),
            decks: Default::default(),
            discards: Default::default(),
            removed: Default::default(),
            turn: Side::Editor,
            turns_played: BySide::default(),
            forbidden: Default::default(),
            stack: Default::default(),
            outcome: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::program::{ExtraTurn, Instr};

    /// A state with nothing on the heap is copied as its bytes, one with
    /// a spilled list or a shared program field by field: either way the
    /// copy is equal, and one on the heap owns its own list and shares
    /// its program.
    #[test]
    fn a_clone_is_equal_whether_copied_as_bytes_or_field_by_field() {
        let plain = State::bare(36);
        assert!(!plain.owns_heap());
        assert_eq!(plain.clone(), plain);

        let spilled = State::bare(100);
        assert!(spilled.evidence.spilled() && spilled.owns_heap());
        let copy = spilled.clone();
        assert_eq!(copy, spilled);
        assert_ne!(copy.evidence.as_ptr(), spilled.evidence.as_ptr());

        let mut shared = State::bare(36);
        let program = Arc::new(vec![Instr::ExtraTurn(ExtraTurn)]);
        shared.push_frame(|| {
            Frame::Run(RunFrame::new(
                ProgRef::Dynamic(program.clone()),
                Side::Editor,
                None,
                None,
            ))
        });
        assert!(shared.owns_heap());
        let copy = shared.clone();
        assert_eq!(copy, shared);
        assert_eq!(Arc::strong_count(&program), 3);
    }

    /// A running frame keeps its program in two parts, and is written with
    /// its program whole (`prog`), as before the split: saved positions
    /// read back the same.
    #[test]
    fn a_running_frame_is_written_with_its_program_whole() {
        let dynamic = ProgRef::Dynamic(Arc::new(vec![Instr::ExtraTurn(ExtraTurn); 2]));
        for prog in [
            ProgRef::Card(CardId(3)),
            ProgRef::Space(Side::Nixon, 2),
            dynamic,
        ] {
            let mut f = RunFrame::new(prog.clone(), Side::Editor, Some(CardId(3)), Some(1));
            f.pc = 1;
            f.picked.push(TokenId(4));
            let text = ron::to_string(&f).unwrap();
            assert!(text.contains("prog:"), "{text}");
            assert!(
                !text.contains("source") && !text.contains("shared"),
                "{text}"
            );
            let back: RunFrame = ron::from_str(&text).unwrap();
            assert_eq!(back, f);
            assert_eq!(back.prog(), prog);
        }
        assert_eq!(std::mem::size_of::<Frame>(), 32);
    }
}
