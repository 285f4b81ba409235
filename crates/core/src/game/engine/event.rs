//! What happened, as it happens: the engine reports each change to an
//! [`Observer`] (the terminal narrates them, simulations count them). Events
//! carry full information; a player is shown them as observations
//! (`crate::game::observation`): the same events with each token the player
//! may not identify replaced by what they do see.

use super::choice::{Actor, Choice};
use crate::game::model::*;
use crate::game::state::{PlayFrame, State};
use serde::{Deserialize, Serialize};

/// A token on the research track, as an event names it. `T` names an
/// evidence token: its id in an [`Event`], what a viewer sees of it in an
/// observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TokenKind<T = TokenId> {
    /// The initiative token.
    Initiative,
    /// The momentum token.
    Momentum,
    /// An evidence token.
    Evidence(T),
}

/// A change to the game. `T` is how the event names an evidence token that
/// may be face down on the research track (R4.3): its id here; an
/// observation (`Event<Seen>`) says only what one viewer sees of it.
/// Tokens the game shows to both players (turned up, pinned) are always ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event<T = TokenId> {
    /// A round begins (R3): the first at the start of the game, then one after
    /// each evaluation phase.
    RoundStarted {
        /// The round's number, from 1.
        round: u16,
        /// Who holds the initiative this round (R7.2).
        initiative: Side,
    },
    /// A player draws cards into their hand (R4.1); with explicit deals, one
    /// event per card.
    CardsDrawn {
        /// The side that draws.
        side: Side,
        /// How many cards it drew (fewer than asked when deck and discard pile run
        /// out, Q2).
        count: u8,
    },
    /// A player's discard pile becomes their new draw deck (R4.1).
    DeckReshuffled {
        /// Whose deck.
        side: Side,
    },
    /// Evidence drawn from the bag onto the track (face down for the initial phase).
    EvidenceDrawn {
        /// The token drawn.
        token: T,
        /// Its track position: 0 the centre, positive on the Editor's side, negative
        /// on Nixon's (R1.3).
        pos: i8,
        /// Whether it lies face up.
        face_up: bool,
    },
    /// A card leaves the hand to be played (`reaction`: as a reaction, R6).
    Played {
        /// Who plays it.
        side: Side,
        /// The card.
        card: CardId,
        /// The part used (R5.1); a reaction always uses its action.
        part: Part,
        /// Whether the card is played as a reaction (R6.1).
        reaction: bool,
    },
    /// A card drawn by an action (Howard Hunt).
    DrewToPlay {
        /// Who draws and plays it.
        side: Side,
        /// The card drawn.
        card: CardId,
    },
    /// The Editor asks for a face-down token of a colour (R5.6).
    AskedColour {
        /// The colour named.
        colour: Colour,
        /// Whether a face-down token of that colour lay on the track.
        found: bool,
    },
    /// Nixon turns a face-down token on the track face up for a value play
    /// (R5.5, R5.6).
    Revealed {
        /// The token turned up.
        token: TokenId,
    },
    /// A cancelled play comes to an end without effect (R6.2, R6.3, R6.6).
    Cancelled {
        /// The card whose play was cancelled.
        card: CardId,
    },
    /// A token on the research track moves or is placed (R5.3, R5.13); also
    /// the initiative token put back on 0 in R7.4.
    Moved {
        /// Which token.
        token: TokenKind<T>,
        /// Its track position before, positive on the Editor's side.
        from: i8,
        /// Its track position after, positive on the Editor's side.
        to: i8,
    },
    /// A face-down evidence token is turned face up: on the track as it moves
    /// (R5.13) or is placed face up, or on the evidence board (Impeachment,
    /// R9.2).
    Flipped {
        /// The token turned up.
        token: TokenId,
    },
    /// A token reaches the last space of a side's half, or the initiative or
    /// momentum goes to a side in evaluation (R5.8, R7.2, R7.3).
    Gained {
        /// The side that gains it.
        side: Side,
        /// Which token.
        token: TokenKind<T>,
    },
    /// An evidence token goes back into the bag (R7.1, Gordon Liddy, Q1 …).
    ToBag {
        /// The token.
        token: T,
    },
    /// An evidence token is pinned on the evidence board (R7.6).
    Pinned {
        /// The side that pins it.
        side: Side,
        /// The token.
        token: TokenId,
        /// The space it is pinned on.
        space: SpaceId,
        /// Face up when the Editor pins, face down when Nixon does (R7.6).
        face_up: bool,
    },
    /// An evidence token that must be pinned finds no empty matching space (Q1);
    /// it then goes where `unpinnable_evidence` says.
    Unpinnable {
        /// The token.
        token: TokenId,
    },
    /// A picture is pinned from the supply on its informant space (R5.13).
    PictureTaken {
        /// The side that pins it.
        side: Side,
        /// The picture.
        picture: PictureId,
        /// Face up (recruited) for the Editor, face down for Nixon.
        face_up: bool,
    },
    /// A pinned picture goes back to the supply (Deep Throat, Q10).
    PictureReturned {
        /// The picture.
        picture: PictureId,
    },
    /// A momentum token is placed on a side's momentum card (R7.3).
    MomentumAwarded {
        /// Whose card.
        side: Side,
        /// The space it goes on, from 0 (space 1 of the card is 0).
        space: u8,
    },
    /// The momentum token lay on 0 and goes back to the supply (R7.3), or the
    /// Editor's card had no free space and `editor_momentum_overflow` sends it
    /// back.
    MomentumReturned,
    /// A side gained the momentum token with no free space on its card: it
    /// leaves the game (R7.3: the Editor's, unless `editor_momentum_overflow`
    /// sends it back to the supply).
    MomentumRemoved,
    /// A new momentum token from the supply is put on space 0 (R7.4).
    NewMomentum,
    /// A card goes to its owner's discard pile (R5.7, R5.10, a discard from hand).
    Discarded {
        /// The owner.
        side: Side,
        /// The card.
        card: CardId,
    },
    /// A card leaves the game (R5.10, R6.3).
    RemovedFromGame {
        /// The card.
        card: CardId,
    },
    /// A restriction binds a side for the rest of the round (A brilliant mood).
    Forbidden {
        /// The side bound.
        side: Side,
    },
    /// A side takes another turn after this one (Chuck Colson, Q4).
    ExtraTurn {
        /// The side.
        side: Side,
    },
    /// The card phase ends at once: both hands are discarded (Cancer on the
    /// presidency).
    CardPhaseEnded,
    /// The game is over (R8).
    Won(Outcome),
}

impl Event {
    /// Whether this event may tell `viewer` something it could not know
    /// before it: a card or token drawn, turned up or gained, a shuffle,
    /// a card the other side played, discarded or answered about. Undo in
    /// play stops at such an event, so a seat never chooses again knowing
    /// what its first choice showed it (R4.3). The match is exhaustive on
    /// purpose: a new event must be judged here.
    pub fn may_reveal_to(&self, viewer: Side) -> bool {
        match self {
            Event::CardsDrawn { .. }
            | Event::DeckReshuffled { .. }
            | Event::EvidenceDrawn { .. }
            | Event::DrewToPlay { .. }
            | Event::AskedColour { .. }
            | Event::Revealed { .. }
            | Event::Flipped { .. }
            | Event::Gained { .. }
            | Event::Pinned { .. }
            | Event::PictureTaken { .. }
            | Event::RemovedFromGame { .. }
            | Event::NewMomentum
            | Event::RoundStarted { .. } => true,
            Event::Played { side, .. } | Event::Discarded { side, .. } => *side != viewer,
            Event::Cancelled { .. }
            | Event::Moved { .. }
            | Event::ToBag { .. }
            | Event::Unpinnable { .. }
            | Event::PictureReturned { .. }
            | Event::MomentumAwarded { .. }
            | Event::MomentumReturned
            | Event::MomentumRemoved
            | Event::Forbidden { .. }
            | Event::ExtraTurn { .. }
            | Event::CardPhaseEnded
            | Event::Won(_) => false,
        }
    }
}

/// Receives events. The default does nothing, so simulations pay nothing.
pub trait Observer {
    /// Called with each event as it happens.
    fn event(&mut self, _e: Event) {}

    /// A play is declared and no reaction window opens: the opponent holds
    /// no card that may answer it (R6). `s` is the state at that moment,
    /// `play` the play as declared. Not an event: what the opponent does
    /// not hold is theirs to know, and no player is told. A front end that
    /// seats two people at one screen hands it to the opponent all the
    /// same when the play's player cannot tell they hold nothing
    /// (`State::could_be_answered`), so a handover does not tell that a
    /// card was held.
    fn unanswered(&mut self, _s: &State, _play: &PlayFrame) {}

    /// A decision with one option is about to be taken by the engine on
    /// its own (`actor`'s only option, `choice`; `s` is the state before
    /// it). Not an event: a scenario does not write such a move, and tells
    /// a user who did so (`formats::scenario`). Told by the doors that run
    /// to the next decision from a list (`apply`, `apply_next`, `settle`),
    /// not by `play_by_place`.
    fn forced(&mut self, _s: &State, _actor: Actor, _choice: Choice) {}
}

/// Ignores every event.
pub struct Quiet;

impl Observer for Quiet {}

impl Observer for Vec<Event> {
    fn event(&mut self, e: Event) {
        self.push(e);
    }
}
