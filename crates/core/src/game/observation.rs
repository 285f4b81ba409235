//! What one player sees of what happened: the engine's events filtered at
//! the source, so a log, a narrator or a front end can show a player the
//! game without holding the whole state.
//!
//! Events carry full information. An [`Observation`] is the same event as
//! one viewer sees it: every evidence token the viewer cannot identify is
//! [`Seen::FaceDown`] instead of its id. For the Editor that is every token
//! face down on the research track (R4.3); Nixon and an omniscient reader
//! (a replay) identify every token. Hands are never named by an event: they
//! only count the cards drawn.
//!
//! A [`Sight`] turns events into observations. It starts from what the
//! viewer knows at a position ([`Sight::new`], or [`Sight::new_game`] before
//! a new game's deal) and follows the events from there, so it needs the
//! state once, not at every step.

use crate::game::engine::{Event, TokenKind};
use crate::game::model::*;
use crate::game::rules::MAX_EVIDENCE;
use crate::game::state::State;
use serde::{Deserialize, Serialize};

/// An evidence token as a viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seen {
    /// The viewer knows which token it is.
    Token(TokenId),
    /// A face-down token the viewer cannot identify (R4.3).
    FaceDown,
}

/// An event as one viewer may see it.
pub type Observation = Event<Seen>;

/// What one viewer can identify: follows the events of a game and turns each
/// into the viewer's [`Observation`].
///
/// Small and `Copy`: the Python package keeps the two sides' sights with
/// each action, to narrate its events only when a record is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sight {
    /// Whose eyes: `None` sees everything.
    viewer: Option<Side>,
    /// Bit `t` for each token `t` the viewer cannot identify right now (the
    /// loader allows at most `MAX_EVIDENCE`, 64, evidence tokens).
    hidden: u64,
}

const _: () = assert!(MAX_EVIDENCE <= 64, "a sight's hidden tokens are one word");

/// Token `t`'s bit in a sight's word (none for an id the loader never
/// gives, 64 or more: such a token would show).
fn bit(t: TokenId) -> u64 {
    1u64.checked_shl(u32::from(t.0)).unwrap_or(0)
}

impl Sight {
    /// What `viewer` knows at position `s`: the Editor cannot identify the
    /// tokens face down on the research track (R4.3).
    pub fn new(s: &State, viewer: Option<Side>) -> Sight {
        let hidden = if viewer == Some(Side::Editor) {
            (0..=u8::MAX)
                .map_while(|slot| s.track_token(slot))
                .filter(|t| matches!(s.on_track(*t), Some((_, false))))
                .fold(0, |hidden, t| hidden | bit(t))
        } else {
            0
        };
        Sight { viewer, hidden }
    }

    /// What `viewer` knows before a new game's deal: every token is in the
    /// bag or the reserve (R2.5), so nothing is hidden yet; the face-down
    /// draws of the first initial phase hide them.
    pub fn new_game(viewer: Option<Side>) -> Sight {
        Sight { viewer, hidden: 0 }
    }

    /// Sees everything (a replay, a finished game).
    pub fn everything() -> Sight {
        Sight::new_game(None)
    }

    /// Whose sight it is; `None` sees everything.
    pub fn viewer(&self) -> Option<Side> {
        self.viewer
    }

    /// The event as the viewer sees it; what it shows the viewer is
    /// remembered for the events that follow.
    pub fn see(&mut self, e: &Event) -> Observation {
        // A draw is hidden or shown as it happens.
        if let Event::EvidenceDrawn { token, face_up, .. } = e {
            if *face_up {
                self.hidden &= !bit(*token);
            } else if self.viewer == Some(Side::Editor) {
                self.hidden |= bit(*token);
            }
        }
        let seen = self.map(e);
        // A token stops being hidden once both players are shown it (turned
        // face up, pinned on the public board, R5.14; unpinnable, named as
        // it leaves), or once it leaves the track: gained (R5.8, pinned at
        // once, so shown next) or back in the bag, as unknown as any bag
        // token.
        match e {
            Event::Revealed { token }
            | Event::Flipped { token }
            | Event::Pinned { token, .. }
            | Event::Unpinnable { token }
            | Event::ToBag { token }
            | Event::Gained {
                token: TokenKind::Evidence(token),
                ..
            } => {
                self.hidden &= !bit(*token);
            }
            _ => {}
        }
        seen
    }

    /// Every event as the viewer sees it, in order.
    pub fn see_all(&mut self, events: &[Event]) -> Vec<Observation> {
        events.iter().map(|e| self.see(e)).collect()
    }

    fn token(&self, t: TokenId) -> Seen {
        if self.hidden & bit(t) != 0 {
            Seen::FaceDown
        } else {
            Seen::Token(t)
        }
    }

    fn kind(&self, k: TokenKind) -> TokenKind<Seen> {
        match k {
            TokenKind::Initiative => TokenKind::Initiative,
            TokenKind::Momentum => TokenKind::Momentum,
            TokenKind::Evidence(t) => TokenKind::Evidence(self.token(t)),
        }
    }

    /// The event with each token that may be hidden as the viewer sees it.
    fn map(&self, e: &Event) -> Observation {
        match *e {
            Event::RoundStarted { round, initiative } => Event::RoundStarted { round, initiative },
            Event::CardsDrawn { side, count } => Event::CardsDrawn { side, count },
            Event::DeckReshuffled { side } => Event::DeckReshuffled { side },
            Event::EvidenceDrawn {
                token,
                pos,
                face_up,
            } => Event::EvidenceDrawn {
                token: self.token(token),
                pos,
                face_up,
            },
            Event::Played {
                side,
                card,
                part,
                reaction,
            } => Event::Played {
                side,
                card,
                part,
                reaction,
            },
            Event::DrewToPlay { side, card } => Event::DrewToPlay { side, card },
            Event::AskedColour { colour, found } => Event::AskedColour { colour, found },
            Event::Revealed { token } => Event::Revealed { token },
            Event::Cancelled { card } => Event::Cancelled { card },
            Event::Moved { token, from, to } => Event::Moved {
                token: self.kind(token),
                from,
                to,
            },
            Event::Flipped { token } => Event::Flipped { token },
            Event::Gained { side, token } => Event::Gained {
                side,
                token: self.kind(token),
            },
            Event::ToBag { token } => Event::ToBag {
                token: self.token(token),
            },
            Event::Pinned {
                side,
                token,
                space,
                face_up,
            } => Event::Pinned {
                side,
                token,
                space,
                face_up,
            },
            Event::Unpinnable { token } => Event::Unpinnable { token },
            Event::PictureTaken {
                side,
                picture,
                face_up,
            } => Event::PictureTaken {
                side,
                picture,
                face_up,
            },
            Event::PictureReturned { picture } => Event::PictureReturned { picture },
            Event::MomentumAwarded { side, space } => Event::MomentumAwarded { side, space },
            Event::MomentumReturned => Event::MomentumReturned,
            Event::MomentumRemoved => Event::MomentumRemoved,
            Event::NewMomentum => Event::NewMomentum,
            Event::Discarded { side, card } => Event::Discarded { side, card },
            Event::RemovedFromGame { card } => Event::RemovedFromGame { card },
            Event::Forbidden { side } => Event::Forbidden { side },
            Event::ExtraTurn { side } => Event::ExtraTurn { side },
            Event::CardPhaseEnded => Event::CardPhaseEnded,
            Event::Won(o) => Event::Won(o),
        }
    }
}

/// One [`Sight`] per side, for a game both players watch.
pub fn both_sides(s: &State) -> BySide<Sight> {
    BySide::from_fn(|side| Sight::new(s, Some(side)))
}
