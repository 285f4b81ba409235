//! Where an option is chosen on the table, and what it would change there.
//!
//! Each option of a seat's decision names the drawn things a click on the
//! table chooses it by (`targets`: a card in the hand or on the table, a
//! track token, a board space, a pile, a colour printed on the card being
//! played, a momentum card's space) and the drawn things it would change
//! (`effects`: where a token goes on the track, the bag a token goes back
//! to, the play a reaction answers…), so the page can make the first
//! clickable and highlight the second on hover and focus.
//!
//! Both are derived from the engine's `Decision` and `Choice` and the
//! seat's `View` only, never from the option's words: they carry nothing
//! the seat does not already see (a face-down token is named by its slot,
//! as the option names it; a card only where the seat sees it).

use crate::game::engine::{Ask, Choice, DecisionKind, TokenRef};
use crate::game::model::*;
use crate::game::program::Amount;
use crate::game::view::View;
use serde::Serialize;

/// A drawn thing on the table, as the page finds it (`board.js`, `play.js`
/// key each by `at` and its fields).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum Target {
    /// A card in the seat's own hand (its id).
    Hand { card: String },
    /// A card on the table: the play in progress, a reaction to it, or a
    /// card drawn and played at once (Howard Hunt, Q3).
    Table { card: String },
    /// A pile: `editor_discard`, `nixon_discard`, `removed` (cards out of
    /// the game) or `bag` (the evidence bag); `card`, the card in it.
    Pile {
        pile: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        card: Option<String>,
    },
    /// One colour printed on a card on the table: the colour the Editor
    /// names when she asks for a face-down token (R5.6).
    Colour { card: String, colour: &'static str },
    /// A token on the research track: `ev3` (by slot), `initiative`,
    /// `momentum`.
    Token { token: String },
    /// A position of the research track, positive on the Editor's side.
    Track { pos: i8 },
    /// A space of the evidence board (its id).
    Space { space: String },
    /// A space of a side's momentum card, counted from 1 (R9).
    Momentum { side: &'static str, space: u8 },
}

/// Where one option is chosen, and what it would change.
pub struct Targeted {
    pub targets: Vec<Target>,
    pub effects: Vec<Target>,
}

/// The token's name on the track, as options and `board.js` name it.
pub fn token_name(t: TokenRef) -> String {
    match t {
        TokenRef::Initiative => "initiative".into(),
        TokenRef::Momentum => "momentum".into(),
        TokenRef::Evidence(slot) => format!("ev{slot}"),
    }
}

/// Steps toward `side`'s half of the track are counted in this sign
/// (R1.3: the Editor's spaces are the positive ones).
fn toward(side: Side) -> i8 {
    match side {
        Side::Editor => 1,
        Side::Nixon => -1,
    }
}

fn pile_of_discard(side: Side) -> &'static str {
    match side {
        Side::Editor => "editor_discard",
        Side::Nixon => "nixon_discard",
    }
}

/// What the seat sees around one decision: built once, asked per option.
pub struct Targeting<'a> {
    v: View<'a>,
    kind: DecisionKind,
}

impl<'a> Targeting<'a> {
    pub fn new(v: View<'a>, kind: DecisionKind) -> Targeting<'a> {
        Targeting { v, kind }
    }

    fn card_id(&self, c: CardId) -> String {
        self.v.rules().card(c).id.clone()
    }

    /// Where the seat sees card `c`: in their hand, on the table, in a
    /// discard pile or among the removed cards; `None` where it is hidden
    /// from them (a deck, the opponent's hand).
    fn card(&self, c: CardId) -> Option<Target> {
        let id = self.card_id(c);
        if self.v.my_hand().contains(&c) {
            return Some(Target::Hand { card: id });
        }
        if self.v.in_play().iter().any(|p| p.card == c) {
            return Some(Target::Table { card: id });
        }
        for side in Side::BOTH {
            if self.v.discard(side).contains(&c) {
                return Some(Target::Pile {
                    pile: pile_of_discard(side),
                    card: Some(id),
                });
            }
        }
        if self.v.removed().contains(&c) {
            return Some(Target::Pile {
                pile: "removed",
                card: Some(id),
            });
        }
        None
    }

    /// Where a track token stands now, if it is on the track.
    fn token_pos(&self, t: TokenRef) -> Option<i8> {
        match t {
            TokenRef::Initiative => self.v.initiative_token(),
            TokenRef::Momentum => self.v.momentum_token(),
            TokenRef::Evidence(slot) => self
                .v
                .track()
                .into_iter()
                .find(|e| e.slot == slot)
                .map(|e| e.pos),
        }
    }

    /// The track position a token at `from` reaches `steps` steps toward
    /// `side`; steps past the last space are lost (R5.3).
    fn moved(&self, from: i8, steps: u8, side: Side) -> Target {
        let l = self.v.rules().numbers.track_length;
        let to = i16::from(from) + i16::from(toward(side)) * i16::from(steps);
        Target::Track {
            pos: to.clamp(-i16::from(l), i16::from(l)) as i8,
        }
    }

    fn space(&self, sp: SpaceId) -> Target {
        Target::Space {
            space: self.v.rules().board.spaces[sp.index()].id.clone(),
        }
    }

    /// The card being played for its value: the last play on the table.
    fn value_card(&self) -> Option<CardId> {
        self.v
            .in_play()
            .into_iter()
            .rev()
            .find(|p| p.part == Some(Part::Value))
            .map(|p| p.card)
    }

    /// Where the instruction that asks is written: its card (on the table,
    /// or wherever the seat sees it), or, for a momentum space's
    /// instruction, the space just filled on the seat's momentum card — the
    /// lowest free one, whose instruction is carried out at once (R7.3).
    fn asker(&self, card: Option<CardId>) -> Option<Target> {
        match card {
            Some(c) => self.card(c),
            None => {
                let side = self.v.side();
                Some(Target::Momentum {
                    side: side.key(),
                    space: self.v.momentum_on_card(side),
                })
            }
        }
    }

    /// Where a token choice moves its token, as the decision says.
    fn token_effect(&self, t: TokenRef) -> Vec<Target> {
        let me = self.v.side();
        let Some(from) = self.token_pos(t) else {
            return Vec::new();
        };
        let value = |c: CardId| self.v.rules().card(c).value;
        match &self.kind {
            // R5.3: the card's value, toward the player's side.
            DecisionKind::ValueTarget { card } | DecisionKind::LockedTarget { card, .. } => {
                vec![self.moved(from, value(*card), me)]
            }
            // R5.6: the token Nixon turns up moves toward the Editor by the
            // value of her card.
            DecisionKind::Reveal { .. } => self
                .value_card()
                .map(|c| vec![self.moved(from, value(c), Side::Editor)])
                .unwrap_or_default(),
            DecisionKind::Action { ask, .. } => match ask {
                // R5.13: "move token X n steps" toward the acting player.
                Ask::Move {
                    steps: Amount::Fixed(n),
                    ..
                } => vec![self.moved(from, *n, me)],
                // R5.13: "to space k" of the acting player's side.
                Ask::Place { space, .. } => vec![self.moved(0, *space, me)],
                Ask::TrackToBag { .. } => vec![Target::Pile {
                    pile: "bag",
                    card: None,
                }],
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// Where choice `c` is chosen on the table, and what it changes there.
    pub fn of(&self, c: Choice) -> Targeted {
        let mut targets = Vec::new();
        let mut effects = Vec::new();
        match c {
            Choice::Play { card, part } => {
                targets.extend(self.card(card));
                // R5.7: a card played for its value goes onto its owner's
                // discard pile (where an action sends its card depends on
                // the card, R5.10).
                if part == Part::Value {
                    effects.push(Target::Pile {
                        pile: pile_of_discard(self.v.rules().card(card).side),
                        card: None,
                    });
                }
            }
            Choice::Token(t) => {
                targets.push(Target::Token {
                    token: token_name(t),
                });
                effects = self.token_effect(t);
            }
            Choice::Ask(colour) => {
                if let DecisionKind::ValueTarget { card } = &self.kind {
                    targets.push(Target::Colour {
                        card: self.card_id(*card),
                        colour: colour.name(),
                    });
                }
                // R5.6: Nixon turns up one of the face-down tokens of that
                // colour; the Editor does not see which are, so all of them.
                effects.extend(self.v.track().into_iter().filter(|t| !t.face_up).map(|t| {
                    Target::Token {
                        token: token_name(TokenRef::Evidence(t.slot)),
                    }
                }));
            }
            Choice::Space(sp) => {
                targets.push(self.space(sp));
                match &self.kind {
                    // R7.6: a token with the momentum symbol moves the
                    // momentum token one step toward the pinner, when it is
                    // on the track.
                    DecisionKind::Pin {
                        momentum_symbol: true,
                        ..
                    } => {
                        if let Some(m) = self.v.momentum_token() {
                            effects.push(Target::Token {
                                token: token_name(TokenRef::Momentum),
                            });
                            effects.push(self.moved(m, 1, self.v.side()));
                        }
                    }
                    DecisionKind::Action {
                        ask: Ask::BoardToBag { .. },
                        ..
                    } => effects.push(Target::Pile {
                        pile: "bag",
                        card: None,
                    }),
                    DecisionKind::Action {
                        ask: Ask::BoardToTrack { space, .. },
                        ..
                    } => effects.push(self.moved(0, *space, self.v.side())),
                    _ => {}
                }
            }
            // A picture is drawn on its informant's space (R1.6).
            Choice::Picture(p) => {
                if let Some(sp) = self.v.rules().board.informant_spaces.get(p.index()) {
                    targets.push(self.space(*sp));
                }
            }
            Choice::Card(card) => targets.extend(self.card(card)),
            Choice::React(card) => {
                targets.extend(self.card(card));
                // R6: the reaction answers the play on the table.
                if let DecisionKind::Reaction { against } = &self.kind {
                    effects.extend(self.card(*against));
                }
            }
            // Letting the opponent's play stand is chosen on that play.
            Choice::Pass => {
                if let DecisionKind::Reaction { against } = &self.kind {
                    targets.extend(self.card(*against));
                }
            }
            // A script's branch or "choose nothing" belongs to the
            // instruction that asks: its card, or its momentum space.
            Choice::Branch(_) | Choice::Skip => {
                if let DecisionKind::Action { card, .. } = &self.kind {
                    targets.extend(self.asker(*card));
                }
            }
            Choice::Chance(_) => {}
        }
        Targeted { targets, effects }
    }
}
