//! What happened, as it happens: the engine reports each change to an
//! [`Observer`] (the terminal narrates them, simulations count them). Events
//! carry full information; a player is shown them as observations
//! (`crate::game::observation`): the same events with each token the player
//! may not identify replaced by what they do see.

use crate::game::model::*;
use serde::{Deserialize, Serialize};

/// A token on the research track, as an event names it. `T` names an
/// evidence token: its id in an [`Event`], what a viewer sees of it in an
/// observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TokenKind<T = TokenId> {
    Initiative,
    Momentum,
    Evidence(T),
}

/// A change to the game. `T` is how the event names an evidence token that
/// may be face down on the research track (R4.3): its id here; an
/// observation (`Event<Seen>`) says only what one viewer sees of it.
/// Tokens the game shows to both players (turned up, pinned) are always ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event<T = TokenId> {
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
        token: T,
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
        token: TokenKind<T>,
        from: i8,
        to: i8,
    },
    Flipped {
        token: TokenId,
    },
    Gained {
        side: Side,
        token: TokenKind<T>,
    },
    ToBag {
        token: T,
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
