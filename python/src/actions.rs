//! OpenSpiel numbers every action of a game once, from 0 to
//! `num_distinct_actions - 1`: the engine's `Choice`s laid out in blocks,
//! sized from the loaded rules, so an id means the same option in every
//! state of the game (a resampled state included). Chance outcomes are
//! numbered apart: outcome `i` of a random event is id `i`.

use watergate_core::game::engine::{Choice, TokenRef};
use watergate_core::game::model::{CardId, Colour, Part, PictureId, SpaceId};
use watergate_core::game::rules::Rules;

/// How many options a script's `one_of` may offer (its branches are
/// numbered 0..): a script with more is refused at the action's id.
pub const MAX_BRANCHES: usize = 32;

/// The blocks of the action space, for one set of rules.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    cards: usize,
    tokens: usize,
    spaces: usize,
    pictures: usize,
}

/// Where each block starts, in order.
struct Offsets {
    play: usize,
    token: usize,
    ask: usize,
    space: usize,
    picture: usize,
    card: usize,
    react: usize,
    pass: usize,
    branch: usize,
    skip: usize,
    end: usize,
}

impl ActionSpace {
    pub fn of(r: &Rules) -> ActionSpace {
        ActionSpace {
            cards: r.cards.len(),
            tokens: r.evidence.len(),
            spaces: r.board.spaces.len(),
            pictures: r.pictures.len(),
        }
    }

    fn offsets(&self) -> Offsets {
        let play = 0;
        let token = play + 2 * self.cards;
        // Initiative, momentum, then one per track slot (at most one per token).
        let ask = token + 2 + self.tokens;
        let space = ask + Colour::ALL.len();
        let picture = space + self.spaces;
        let card = picture + self.pictures;
        let react = card + self.cards;
        let pass = react + self.cards;
        let branch = pass + 1;
        let skip = branch + MAX_BRANCHES;
        Offsets {
            play,
            token,
            ask,
            space,
            picture,
            card,
            react,
            pass,
            branch,
            skip,
            end: skip + 1,
        }
    }

    /// `num_distinct_actions`.
    pub fn size(&self) -> usize {
        self.offsets().end
    }

    /// The most outcomes one random event can have: a card among a deck or
    /// a hand, a token among the bag.
    pub fn max_chance_outcomes(&self) -> usize {
        self.cards.max(self.tokens).max(1)
    }

    /// The id of a player's option; `None` for a chance outcome (numbered
    /// by its place) or an option outside the space (a script's branch
    /// beyond `MAX_BRANCHES`).
    pub fn id(&self, c: Choice) -> Option<usize> {
        let o = self.offsets();
        let id = match c {
            Choice::Play { card, part } => {
                o.play + 2 * card.index() + usize::from(part == Part::Action)
            }
            Choice::Token(TokenRef::Initiative) => o.token,
            Choice::Token(TokenRef::Momentum) => o.token + 1,
            Choice::Token(TokenRef::Evidence(slot)) if (slot as usize) < self.tokens => {
                o.token + 2 + slot as usize
            }
            Choice::Ask(colour) => o.ask + colour as usize,
            Choice::Space(s) if s.index() < self.spaces => o.space + s.index(),
            Choice::Picture(p) if p.index() < self.pictures => o.picture + p.index(),
            Choice::Card(c) if c.index() < self.cards => o.card + c.index(),
            Choice::React(c) if c.index() < self.cards => o.react + c.index(),
            Choice::Pass => o.pass,
            Choice::Branch(n) if (n as usize) < MAX_BRANCHES => o.branch + n as usize,
            Choice::Skip => o.skip,
            _ => return None,
        };
        Some(id)
    }

    /// The player's option an id stands for; `None` outside the space.
    pub fn choice(&self, id: usize) -> Option<Choice> {
        let o = self.offsets();
        let u8_of = |n: usize| u8::try_from(n).ok();
        let c = if id < o.token {
            Choice::Play {
                card: CardId(u8_of(id / 2)?),
                part: if id % 2 == 1 {
                    Part::Action
                } else {
                    Part::Value
                },
            }
        } else if id < o.ask {
            match id - o.token {
                0 => Choice::Token(TokenRef::Initiative),
                1 => Choice::Token(TokenRef::Momentum),
                n => Choice::Token(TokenRef::Evidence(u8_of(n - 2)?)),
            }
        } else if id < o.space {
            Choice::Ask(Colour::ALL[id - o.ask])
        } else if id < o.picture {
            Choice::Space(SpaceId(u8_of(id - o.space)?))
        } else if id < o.card {
            Choice::Picture(PictureId(u8_of(id - o.picture)?))
        } else if id < o.react {
            Choice::Card(CardId(u8_of(id - o.card)?))
        } else if id < o.pass {
            Choice::React(CardId(u8_of(id - o.react)?))
        } else if id == o.pass {
            Choice::Pass
        } else if id < o.skip {
            Choice::Branch(u8_of(id - o.branch)?)
        } else if id == o.skip {
            Choice::Skip
        } else {
            return None;
        };
        Some(c)
    }
}
