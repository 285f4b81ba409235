//! What one player may see (R4.3, R5.14). Agents get a [`View`], never the
//! state: its fields are private, and every accessor returns only public
//! information plus the viewer's own secrets (their hand; for Nixon, the
//! face-down evidence on the research track). Draw decks, the bag's order
//! and the opponent's hand are never exposed.

use crate::game::engine::{Actor, Choice, Decision, DecisionKind};
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::*;
use serde::Serialize;

/// One player's window on a game.
#[derive(Clone, Copy)]
pub struct View<'a> {
    rules: &'a Rules,
    state: &'a State,
    side: Side,
}

/// An evidence token on the research track as the viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TrackToken {
    /// How choices name it (`TokenRef::Evidence(slot)`).
    pub slot: u8,
    /// Positive on the Editor's side.
    pub pos: i8,
    /// Whether it lies face up.
    pub face_up: bool,
    /// `None` when hidden from the viewer (face down, and the viewer is the Editor).
    pub colours: Option<Colours>,
    /// Whether it shows the momentum symbol; `None` when hidden, as its
    /// colours.
    pub momentum_symbol: Option<bool>,
}

/// An evidence token on the board (both players may look, R5.14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BoardToken {
    /// The evidence space it is pinned on.
    pub space: SpaceId,
    /// Face up when the Editor pinned it, face down when Nixon did (R7.6).
    pub face_up: bool,
    /// Its colours, one or two (R1.5).
    pub colours: Colours,
    /// Whether it shows the momentum symbol.
    pub momentum_symbol: bool,
}

/// A card on the table: being played, or answered by a reaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct InPlay {
    /// The card.
    pub card: CardId,
    /// Who plays it.
    pub player: Side,
    /// The part used; `None` while a drawn card's part is not chosen yet.
    pub part: Option<Part>,
    /// Whether a reaction has cancelled the play (R6).
    pub cancelled: bool,
}

impl<'a> View<'a> {
    /// `side`'s view of `state`, a game played on `rules`.
    pub fn new(rules: &'a Rules, state: &'a State, side: Side) -> View<'a> {
        View { rules, state, side }
    }

    /// The viewer's side.
    pub fn side(&self) -> Side {
        self.side
    }

    /// The rules the game is played on.
    pub fn rules(&self) -> &'a Rules {
        self.rules
    }

    /// The decision pending for the viewer, if it is theirs to take.
    pub fn decision(&self) -> Option<Decision> {
        let d = self.state.decision(self.rules)?;
        (d.actor == Actor::Player(self.side)).then_some(d)
    }

    /// Like [`View::decision`], filling a buffer (cheap for simulations).
    pub fn legal(&self, out: &mut Vec<Choice>) -> bool {
        match self.state.legal(self.rules, out) {
            Some(Actor::Player(s)) if s == self.side => true,
            _ => {
                out.clear();
                false
            }
        }
    }

    /// What the pending decision is about, whoever takes it.
    pub fn decision_kind(&self) -> DecisionKind {
        self.state.decision_kind(self.rules)
    }

    /// The round's number, from 1 (R3).
    pub fn round(&self) -> u16 {
        self.state.round
    }

    /// The phase of the round.
    pub fn phase(&self) -> Phase {
        self.state.phase
    }

    /// Who won and how, once the game is over (R8).
    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome
    }

    /// Who holds the initiative (the initiative card).
    pub fn initiative(&self) -> Side {
        self.state.initiative
    }

    /// The initiative token's track position, positive on the Editor's
    /// side; `None` once gained this round (R5.8).
    pub fn initiative_token(&self) -> Option<i8> {
        self.state.initiative_token
    }

    /// The momentum token's track position, positive on the Editor's side;
    /// `None` when not on the track.
    pub fn momentum_token(&self) -> Option<i8> {
        self.state.momentum_token
    }

    /// Momentum tokens left in the supply (R7.4).
    pub fn momentum_supply(&self) -> u8 {
        self.state.momentum_supply
    }

    /// Momentum tokens on `side`'s momentum card (R7.3, R8.1).
    pub fn momentum_on_card(&self, side: Side) -> u8 {
        self.state.momentum_cards[side]
    }

    /// Momentum tokens out of the game (R7.3).
    pub fn momentum_removed(&self) -> u8 {
        self.state.momentum_removed
    }

    /// Whose turn it is when no play is in progress.
    pub fn turn(&self) -> Side {
        self.state.turn
    }

    /// Cards `side` has played this round (reactions count, R6.1).
    pub fn turns_played(&self, side: Side) -> u8 {
        self.state.turns_played[side]
    }

    /// The viewer's own hand.
    pub fn my_hand(&self) -> &'a [CardId] {
        &self.state.hands[self.side]
    }

    /// How many cards `side` holds (public, though the cards are not).
    pub fn hand_size(&self, side: Side) -> usize {
        self.state.hands[side].len()
    }

    /// How many cards are left in `side`'s draw deck.
    pub fn deck_size(&self, side: Side) -> usize {
        self.state.decks[side].len()
    }

    /// Discard piles are public (R5.14), oldest first.
    pub fn discard(&self, side: Side) -> &'a [CardId] {
        &self.state.discards[side]
    }

    /// Removed cards are public (R5.14).
    pub fn removed(&self) -> &'a [CardId] {
        &self.state.removed
    }

    /// How many evidence tokens are in the bag.
    pub fn bag_size(&self) -> usize {
        self.state.bag.len()
    }

    /// Evidence on the research track, in slot order; face-down colours are
    /// shown to Nixon only (R4.3).
    pub fn track(&self) -> Vec<TrackToken> {
        self.state
            .track
            .iter()
            .enumerate()
            .filter_map(|(slot, t)| {
                let (pos, face_up) = self.state.on_track(*t)?;
                let visible = face_up || self.side == Side::Nixon;
                let tok = self.rules.token(*t);
                Some(TrackToken {
                    slot: slot as u8,
                    pos,
                    face_up,
                    colours: visible.then_some(tok.colours),
                    momentum_symbol: visible.then_some(tok.momentum_symbol),
                })
            })
            .collect()
    }

    /// Evidence on the board, face-down tokens included (R5.14).
    pub fn board(&self) -> Vec<BoardToken> {
        self.state
            .evidence
            .iter()
            .enumerate()
            .filter_map(|(i, l)| match l {
                EvLoc::Board { space, face_up } => {
                    let tok = self.rules.token(TokenId(i as u8));
                    Some(BoardToken {
                        space: *space,
                        face_up: *face_up,
                        colours: tok.colours,
                        momentum_symbol: tok.momentum_symbol,
                    })
                }
                _ => None,
            })
            .collect()
    }

    /// A token waiting to be pinned (it was gained face up, or is the
    /// pinner's own): visible to both.
    pub fn held_token(&self) -> Option<(Colours, bool)> {
        match self.state.stack.last() {
            Some(Frame::Pin { token, .. }) => {
                let t = self.rules.token(*token);
                Some((t.colours, t.momentum_symbol))
            }
            _ => None,
        }
    }

    /// Where each picture is, by `PictureId` (public, R5.14).
    pub fn pictures(&self) -> &'a [PicLoc] {
        &self.state.pictures
    }

    /// Face-up informants connected to Nixon now (R8.3).
    pub fn connected_informants(&self) -> usize {
        crate::game::engine::connected_informants(self.rules, self.state)
    }

    /// Cards on the table, oldest first: the play and any reactions to it.
    pub fn in_play(&self) -> Vec<InPlay> {
        self.state
            .stack
            .iter()
            .filter_map(|f| match f {
                Frame::Play(p) => Some(InPlay {
                    card: p.card,
                    player: p.player,
                    part: p.part,
                    cancelled: p.cancelled.is_some(),
                }),
                _ => None,
            })
            .collect()
    }

    /// Restrictions in force this round (A brilliant mood).
    pub fn forbidden(&self) -> Vec<crate::game::program::Forbid> {
        self.state.forbidden.to_vec()
    }

    /// Cards whose place the viewer cannot know: the opponent's hand and
    /// deck together, and the viewer's own deck.
    pub fn unseen_cards(&self, owner: Side) -> Vec<CardId> {
        let i = owner;
        let mut v: Vec<CardId> = self.state.decks[i].to_vec();
        if owner != self.side {
            v.extend(self.state.hands[i].iter().copied());
        }
        v.sort();
        v
    }

    /// Evidence tokens whose identity the viewer cannot know: those in the
    /// bag, and (for the Editor) the face-down ones on the research track.
    pub fn unseen_evidence(&self) -> Vec<TokenId> {
        let mut v: Vec<TokenId> = self.state.bag.to_vec();
        if self.side == Side::Editor {
            v.extend(
                self.state
                    .track
                    .iter()
                    .copied()
                    .filter(|t| matches!(self.state.on_track(*t), Some((_, false)))),
            );
        }
        v.sort();
        v
    }
}

impl View<'_> {
    /// A full game state consistent with this view, with everything the
    /// viewer cannot see dealt again at random: the opponent's hand and
    /// deck, the viewer's own deck order, the bag's order, and (for the
    /// Editor) which tokens lie face down on the research track. This is the
    /// only place an agent's search touches a full state, and it reads the
    /// hidden parts only for their sizes and pools, never their contents.
    pub fn determinize(&self, seed: u64) -> State {
        use crate::game::rules::{MAX_CARDS_A_SIDE, MAX_EVIDENCE};
        use crate::game::state::shuffle;
        use rand::SeedableRng;
        // A search determinizes at every iteration. Scratch lists are
        // arrays on the stack with room for every card of a side and every
        // evidence token (the loader's limits), and each list dealt again
        // keeps its length, so the state's lists are written in place:
        // no list grows, none asks whether it spilled at each item, and a
        // token's new place is written with no look at the board's sets
        // (it goes from the track or the bag to the track or the bag).
        // Each pool is put in id order before it is shuffled, so the deal
        // depends on what the pool holds, never on the order the hidden
        // cards or tokens lay in.
        let mut s = self.state.clone();
        s.rng = GameRng::seed_from_u64(seed);
        let me = self.side;
        let opp = me.other();
        // The opponent's hand and deck: one pool, dealt again.
        let mut pool = [CardId(0); MAX_CARDS_A_SIDE];
        let hand: &mut [CardId] = &mut s.hands[opp];
        let deck: &mut [CardId] = &mut s.decks[opp];
        let (h, n) = (hand.len(), hand.len() + deck.len());
        pool[..h].copy_from_slice(hand);
        pool[h..n].copy_from_slice(deck);
        sort_ids(&mut pool[..n], |c| c.0, CardId);
        shuffle(&mut s.rng, &mut pool[..n]);
        hand.copy_from_slice(&pool[..h]);
        deck.copy_from_slice(&pool[h..n]);
        // The viewer's own deck order is unknown to them too.
        let deck: &mut [CardId] = &mut s.decks[me];
        sort_ids(deck, |c| c.0, CardId);
        shuffle(&mut s.rng, deck);
        // Evidence the viewer cannot identify: the bag, and for the Editor
        // the face-down tokens on the research track (their slots first).
        let evidence: &mut [EvLoc] = &mut s.evidence;
        let track: &mut [TokenId] = &mut s.track;
        let bag: &mut [TokenId] = &mut s.bag;
        let mut tokens = [TokenId(0); MAX_EVIDENCE];
        // Each hidden slot and the space its token lies on, face down.
        let mut slots = [(0u8, 0i8); MAX_EVIDENCE];
        let mut hidden = 0;
        if me == Side::Editor {
            for (slot, t) in track.iter().enumerate() {
                if let EvLoc::Track {
                    pos,
                    face_up: false,
                } = evidence[t.index()]
                {
                    slots[hidden] = (slot as u8, pos);
                    tokens[hidden] = *t;
                    hidden += 1;
                }
            }
        }
        let m = hidden + bag.len();
        tokens[hidden..m].copy_from_slice(bag);
        sort_ids(&mut tokens[..m], |t| t.0, TokenId);
        shuffle(&mut s.rng, &mut tokens[..m]);
        // Every token of the pool lies in the bag but the hidden slots'
        // new ones: those of the bag lay there already, the hidden ones go
        // there first, and a hidden slot's new token lies where the old
        // one lay.
        // The track's kept mask of face-down tokens follows them.
        let mut face_down = s.track_face_down;
        for &(slot, _) in &slots[..hidden] {
            let t = track[slot as usize];
            evidence[t.index()] = EvLoc::Bag;
            face_down &= !(1 << (t.0 & 63));
        }
        for (&(slot, pos), &t) in slots[..hidden].iter().zip(&tokens) {
            track[slot as usize] = t;
            evidence[t.index()] = EvLoc::Track {
                pos,
                face_up: false,
            };
            face_down |= 1 << (t.0 & 63);
        }
        bag.copy_from_slice(&tokens[hidden..m]);
        s.track_face_down = face_down;
        s
    }
}

/// Puts ids (one byte each) in ascending order: through a 256-bit set when
/// they are distinct, as the cards and tokens of a game are (a handful of
/// instructions per id, where a comparison sort takes dozens); by sorting
/// otherwise. The same order either way.
fn sort_ids<T: Copy + Ord>(items: &mut [T], id: impl Fn(T) -> u8, make: impl Fn(u8) -> T) {
    let mut set = [0u64; 4];
    for &t in items.iter() {
        let b = id(t);
        set[(b >> 6) as usize] |= 1u64 << (b & 63);
    }
    // Distinct ids set as many bits as there are items: one check for the
    // whole list, where a test of each id's bit before setting it was a
    // load and a branch per id (about 4 % of a determinization's
    // instructions, issue 38).
    if set.iter().map(|w| w.count_ones() as usize).sum::<usize>() != items.len() {
        items.sort_unstable();
        return;
    }
    let mut out = items.iter_mut();
    for (w, mut bits) in set.into_iter().enumerate() {
        while bits != 0 {
            let b = (w as u32 * 64 + bits.trailing_zeros()) as u8;
            bits &= bits - 1;
            if let Some(slot) = out.next() {
                *slot = make(b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sort_ids;

    #[test]
    fn ids_are_put_in_ascending_order_whether_distinct_or_not() {
        let cases: [&[u8]; 5] = [
            &[],
            &[7],
            &[200, 3, 64, 63, 255, 0, 128, 127],
            &[5, 1, 5, 0],
            &[9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 66, 65, 130, 129, 250, 249],
        ];
        for case in cases {
            let mut got = case.to_vec();
            sort_ids(&mut got, |b| b, |b| b);
            let mut want = case.to_vec();
            want.sort();
            assert_eq!(got, want, "{case:?}");
        }
    }
}
