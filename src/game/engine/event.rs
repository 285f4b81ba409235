//! What happened, as it happens: the engine reports each change to an
//! [`Observer`] (the terminal narrates them, simulations count them). Events
//! carry full information; whoever shows them to a player filters by what
//! that player may see.

use crate::game::model::*;
use serde::{Deserialize, Serialize};

/// A token on the research track, as an event names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TokenKind {
    Initiative,
    Momentum,
    Evidence(TokenId),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    RoundStarted {
        round: u16,
        initiative: Side,
    },
    CardsDrawn {
        side: Side,
        count: u8,
    },
    DeckReshuffled {
        side: Side,
    },
    /// Evidence drawn from the bag onto the track (face down for the initial phase).
    EvidenceDrawn {
        token: TokenId,
        pos: i8,
        face_up: bool,
    },
    /// A card leaves the hand to be played (`reaction`: as a reaction, R6).
    Played {
        side: Side,
        card: CardId,
        part: Part,
        reaction: bool,
    },
    /// A card drawn by an action (Howard Hunt).
    DrewToPlay {
        side: Side,
        card: CardId,
    },
    AskedColour {
        colour: Colour,
        found: bool,
    },
    Revealed {
        token: TokenId,
    },
    Cancelled {
        card: CardId,
    },
    Moved {
        token: TokenKind,
        from: i8,
        to: i8,
    },
    Flipped {
        token: TokenId,
    },
    Gained {
        side: Side,
        token: TokenKind,
    },
    ToBag {
        token: TokenId,
    },
    Pinned {
        side: Side,
        token: TokenId,
        space: SpaceId,
        face_up: bool,
    },
    Unpinnable {
        token: TokenId,
    },
    PictureTaken {
        side: Side,
        picture: PictureId,
        face_up: bool,
    },
    PictureReturned {
        picture: PictureId,
    },
    MomentumAwarded {
        side: Side,
        space: u8,
    },
    MomentumReturned,
    MomentumRemoved,
    NewMomentum,
    Discarded {
        side: Side,
        card: CardId,
    },
    RemovedFromGame {
        card: CardId,
    },
    Forbidden {
        side: Side,
    },
    ExtraTurn {
        side: Side,
    },
    CardPhaseEnded,
    Won(Outcome),
}

/// Receives events. The default does nothing, so simulations pay nothing.
pub trait Observer {
    fn event(&mut self, _e: Event) {}
}

/// Ignores every event.
pub struct Quiet;

impl Observer for Quiet {}

impl Observer for Vec<Event> {
    fn event(&mut self, e: Event) {
        self.push(e);
    }
}
