//! Decisions as data: who must choose, what about, and the full list of
//! legal options. Every player — terminal, AI, scenario, solver — answers
//! through this one door.

use crate::game::model::*;
use crate::game::program::{Amount, EvidenceFilter, TokenSelector};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A research-track token as a player may name it. Evidence is named by its
/// slot on the track, never by its identity, so options reveal nothing about
/// face-down tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TokenRef {
    /// The initiative token.
    Initiative,
    /// The momentum token.
    Momentum,
    /// The evidence token in this slot of the track: an index into
    /// `State::track`, the tokens on the track in the order they arrived.
    Evidence(u8),
}

/// One legal option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(align(4))]
pub enum Choice {
    /// Play a card from hand (or a drawn card) for one of its parts (R5.1).
    Play {
        /// The card played.
        card: CardId,
        /// The part used: its value or its action.
        part: Part,
    },
    /// Pick a token on the research track.
    Token(TokenRef),
    /// The Editor asks for a face-down token of this colour (R5.6).
    Ask(Colour),
    /// Pick a space of the evidence board (pinning, or a token on it).
    Space(SpaceId),
    /// Pick a picture tile.
    Picture(PictureId),
    /// Pick a card.
    Card(CardId),
    /// React to the opponent's play with this card (R6).
    React(CardId),
    /// Let the opponent's play stand.
    Pass,
    /// Pick option `n` of a script's `one_of`.
    Branch(u8),
    /// Choose nothing ("up to", "you may").
    Skip,
    /// Chance: outcome `n` of a random event (only with explicit chance).
    Chance(u8),
}

impl Choice {
    /// The choice as one number: equal for equal choices and different for
    /// different ones (the variant in bits 16 and up, its fields below).
    /// A search matches its tree's children against a decision's options by
    /// it, each option's number made once a decision: the derived `==`
    /// compares the variants and then the fields, with a branch on each,
    /// and took 4 % of an ISMCTS iteration's instructions there (issue 38).
    #[inline]
    pub fn key(self) -> u32 {
        let (variant, a, b) = match self {
            Choice::Play { card, part } => (0, card.0, part as u8),
            Choice::Token(TokenRef::Initiative) => (1, 0, 0),
            Choice::Token(TokenRef::Momentum) => (1, 1, 0),
            Choice::Token(TokenRef::Evidence(slot)) => (1, 2, slot),
            Choice::Ask(colour) => (2, colour as u8, 0),
            Choice::Space(space) => (3, space.0, 0),
            Choice::Picture(picture) => (4, picture.0, 0),
            Choice::Card(card) => (5, card.0, 0),
            Choice::React(card) => (6, card.0, 0),
            Choice::Pass => (7, 0, 0),
            Choice::Branch(n) => (8, n, 0),
            Choice::Skip => (9, 0, 0),
            Choice::Chance(n) => (10, n, 0),
        };
        (variant as u32) << 16 | (a as u32) << 8 | b as u32
    }
}

/// Who decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Actor {
    /// This side's player.
    Player(Side),
    /// A random event, when the state asks for explicit chance.
    Chance,
}

impl Actor {
    /// The deciding player's side; `None` for chance.
    pub fn side(self) -> Option<Side> {
        match self {
            Actor::Player(s) => Some(s),
            Actor::Chance => None,
        }
    }
}

/// What a decision is about (for displays and agents).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DecisionKind {
    /// Your turn: which card, and which part.
    PlayCard,
    /// A card drawn by an action must be played at once: which part.
    ChoosePart {
        /// The card drawn (Howard Hunt's top card, Q3).
        card: CardId,
    },
    /// Value play: which token to move (or which colour to ask for).
    ValueTarget {
        /// The card played for its value.
        card: CardId,
    },
    /// Nixon reveals one of his face-down tokens of the colour the Editor named.
    Reveal {
        /// The colour the Editor named.
        colour: Colour,
    },
    /// After a negative answer the Editor's move is limited to this colour.
    LockedTarget {
        /// The card played for its value.
        card: CardId,
        /// The colour she named, which stays fixed for this play (R5.6, R10.2).
        colour: Colour,
    },
    /// React to the opponent's play, or pass.
    Reaction {
        /// The card of the play that may be answered.
        against: CardId,
    },
    /// Where to pin an evidence token.
    Pin {
        /// The token's colours: it may go on an empty space whose slip
        /// matches one of them (R7.6).
        colours: Colours,
        /// Whether the token shows the momentum symbol (R7.6).
        momentum_symbol: bool,
    },
    /// A choice inside a card's action (or a momentum space's instruction).
    Action {
        /// The card whose action it is; `None` for a momentum space's
        /// instruction.
        card: Option<CardId>,
        /// What the instruction asks for.
        ask: Ask,
    },
    /// A random event: what it decides, and how many equally likely
    /// outcomes each option stands for (empty: one each).
    Chance {
        /// What the event decides.
        what: ChanceOf,
        /// For each option, how many equally likely outcomes it stands for
        /// (empty: one each).
        weights: Vec<u32>,
    },
}

impl DecisionKind {
    /// Whether the other player learns that `choice` was made here, or only
    /// what it did. The engine offers a reaction window only to a player
    /// holding a card that can react (R6), and asks Nixon which token to
    /// turn up (R5.6) only when two or more fit; at the table a player
    /// declines to react, and turns up a token, without saying how many he
    /// could have chosen from. So the other player is not told of a pass,
    /// and of a token turned up only by the event that turns it up: a
    /// front end that showed them the choice would show that a reaction
    /// card is held.
    pub fn tells_the_other(&self, choice: Choice) -> bool {
        !matches!(
            (self, choice),
            (DecisionKind::Reaction { .. }, Choice::Pass) | (DecisionKind::Reveal { .. }, _)
        )
    }
}

/// What a random event decides (words for it: `crate::game::wording`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChanceOf {
    /// Which evidence token comes out of the bag.
    EvidenceDrawn,
    /// Which card of a hand is discarded at random.
    CardDiscarded,
    /// Which card comes out on top of a reshuffled deck.
    TopOfReshuffledDeck,
    /// Which card of the deck is drawn (only with explicit deals).
    CardDrawn,
}

/// What an instruction of a card's action asks for, as data; words for it
/// are made in one place, `crate::game::wording`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ask {
    /// Pick a token to move `steps` toward you: pick `done + 1` of `count`
    /// (`up_to`: or stop). `what.trigger_token`: the token the answered
    /// play was moving.
    Move {
        /// The tokens that may be picked.
        what: TokenSelector,
        /// The steps the picked token moves.
        steps: Amount,
        /// How many distinct tokens the instruction moves in all.
        count: u8,
        /// Whether the player may stop before `count` (Q9).
        up_to: bool,
        /// How many tokens have been moved already.
        done: u8,
    },
    /// Pick a token to put on space `space` of your side.
    Place {
        /// The tokens that may be picked.
        what: TokenSelector,
        /// The space of the player's side it goes on (0: the centre).
        space: u8,
    },
    /// Pick a track token to return to the bag.
    TrackToBag {
        /// Which evidence tokens on the track may be picked.
        filter: EvidenceFilter,
    },
    /// Pick a track token to pin.
    PinFromTrack {
        /// Which evidence tokens on the track may be picked.
        filter: EvidenceFilter,
    },
    /// Pick a board token to return to the bag.
    BoardToBag {
        /// Which evidence tokens on the board may be picked.
        filter: EvidenceFilter,
    },
    /// Pick a board token to put on space `space` of the track.
    BoardToTrack {
        /// Which evidence tokens on the board may be picked.
        filter: EvidenceFilter,
        /// The space of the player's side it goes on (0: the centre).
        space: u8,
    },
    /// Pick a face-down board token to turn face up.
    FlipOnBoard,
    /// Pick a pinned picture to return to the supply.
    UnpinPicture,
    /// Pick a card; the script's own question (card data, not engine text).
    ChooseCard {
        /// The script's question.
        prompt: String,
    },
    /// Pick a branch; the script's question and its options' labels.
    Branch {
        /// The script's question.
        prompt: String,
        /// The options' labels, in the order of [`Choice::Branch`]'s numbers.
        labels: Vec<String>,
    },
    /// Nothing to ask (no instruction waits).
    Continue,
}

/// A pending decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// Who decides: a player, or chance.
    pub actor: Actor,
    /// What the decision is about.
    pub kind: DecisionKind,
    /// Every legal option, in the engine's order.
    pub options: Vec<Choice>,
}

impl fmt::Display for TokenRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenRef::Initiative => f.write_str("initiative"),
            TokenRef::Momentum => f.write_str("momentum"),
            TokenRef::Evidence(s) => write!(f, "evidence#{s}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Choice::key` tells apart every two different choices and gives
    /// equal choices the same number.
    #[test]
    fn keys_tell_choices_apart() {
        let mut all = Vec::new();
        for b in [0u8, 1, 2, 63, 64, 200, 255] {
            for part in [Part::Value, Part::Action] {
                all.push(Choice::Play {
                    card: CardId(b),
                    part,
                });
            }
            all.push(Choice::Token(TokenRef::Evidence(b)));
            all.push(Choice::Space(SpaceId(b)));
            all.push(Choice::Picture(PictureId(b)));
            all.push(Choice::Card(CardId(b)));
            all.push(Choice::React(CardId(b)));
            all.push(Choice::Branch(b));
            all.push(Choice::Chance(b));
        }
        all.extend([
            Choice::Token(TokenRef::Initiative),
            Choice::Token(TokenRef::Momentum),
            Choice::Ask(Colour::Blue),
            Choice::Ask(Colour::Yellow),
            Choice::Ask(Colour::Green),
            Choice::Pass,
            Choice::Skip,
        ]);
        for a in &all {
            for b in &all {
                assert_eq!(a == b, a.key() == b.key(), "{a:?} and {b:?}");
            }
        }
    }
}
