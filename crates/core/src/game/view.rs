//! What one player may see (R4.3, R5.14). Agents get a [`View`], never the
//! state: its fields are private, and every accessor returns only public
//! information plus the viewer's own secrets (their hand; for Nixon, the
//! face-down evidence on the research track). Draw decks, the bag's order
//! and the opponent's hand are never exposed.

use crate::game::engine::{Actor, Choice, Decision, DecisionKind};
use crate::game::model::*;
use crate::game::rules::{Rules, MAX_CARDS_A_SIDE, MAX_EVIDENCE};
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
    /// Face down: the colours everyone knows it lacks, since the Editor
    /// asked for them in vain while it lay there (R5.6).
    pub ruled_out: Colours,
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
                    ruled_out: self.state.ruled_out(*t),
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
    ///
    /// What a vain ask told everyone (R5.6: none of the tokens face down
    /// then had the colour) is kept: a face-down token known to lack a
    /// colour is dealt again only as a token that lacks it, and the new
    /// token carries the knowledge on (`deal_knowing`).
    pub fn determinize(&self, seed: u64) -> State {
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
        // Each hidden slot, the space its token lies on face down, and the
        // colours that token is known to lack.
        let mut slots = [(0u8, 0i8); MAX_EVIDENCE];
        let mut lacks = [Colours::NONE; MAX_EVIDENCE];
        let mut known = false;
        let mut hidden = 0;
        if me == Side::Editor {
            for (slot, t) in track.iter().enumerate() {
                if let EvLoc::Track {
                    pos,
                    face_up: false,
                    ruled_out,
                } = evidence[t.index()]
                {
                    slots[hidden] = (slot as u8, pos);
                    lacks[hidden] = ruled_out;
                    known |= !ruled_out.is_empty();
                    tokens[hidden] = *t;
                    hidden += 1;
                }
            }
        }
        let m = hidden + bag.len();
        tokens[hidden..m].copy_from_slice(bag);
        sort_ids(&mut tokens[..m], |t| t.0, TokenId);
        shuffle(&mut s.rng, &mut tokens[..m]);
        if known {
            let colours = |t: TokenId| self.rules.token_colours(t);
            deal_knowing(&mut s.rng, &mut tokens[..m], &lacks[..hidden], colours);
        }
        // An ask that found its colour (R5.6) waits for Nixon to turn up
        // one of his face-down tokens of it: the Editor knows one lies
        // there, and a deal without one would leave Nixon nothing to turn.
        if let Some(Frame::Play(PlayFrame {
            stage: PlayStage::Reveal(colour),
            ..
        })) = s.stack.last()
        {
            let colours = |t: TokenId| self.rules.token_colours(t);
            deal_one_of(
                &mut s.rng,
                &mut tokens[..m],
                &lacks[..hidden],
                *colour,
                colours,
            );
        }
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
        for ((&(slot, pos), &t), &ruled_out) in slots[..hidden].iter().zip(&tokens).zip(&lacks) {
            track[slot as usize] = t;
            evidence[t.index()] = EvLoc::Track {
                pos,
                face_up: false,
                ruled_out,
            };
            face_down |= 1 << (t.0 & 63);
        }
        bag.copy_from_slice(&tokens[hidden..m]);
        s.track_face_down = face_down;
        s
    }
}

/// Makes a dealt pool of tokens (`deal_knowing`'s: the first `lacks.len()`
/// go to the hidden slots) put a token of `colour` in a hidden slot, when
/// none lies there yet: a token of the colour is swapped in from the bag's
/// part, into a slot whose knowledge it agrees with, the pair drawn at
/// random among those that fit. One fits: the true deal has such a token
/// in such a slot. Deals that had one already are left as they are.
fn deal_one_of(
    rng: &mut GameRng,
    tokens: &mut [TokenId],
    lacks: &[Colours],
    colour: Colour,
    colours: impl Fn(TokenId) -> Colours,
) {
    let hidden = lacks.len();
    if tokens[..hidden]
        .iter()
        .any(|t| colours(*t).contains(colour))
    {
        return;
    }
    let fits = |slot: usize, j: usize| {
        let c = colours(tokens[j]);
        c.contains(colour) && !c.intersects(lacks[slot])
    };
    let count = (0..hidden)
        .flat_map(|slot| (hidden..tokens.len()).map(move |j| (slot, j)))
        .filter(|&(slot, j)| fits(slot, j))
        .count();
    if count == 0 {
        return;
    }
    let k = crate::game::state::below(rng, count);
    if let Some((slot, j)) = (0..hidden)
        .flat_map(|slot| (hidden..tokens.len()).map(move |j| (slot, j)))
        .filter(|&(slot, j)| fits(slot, j))
        .nth(k)
    {
        tokens.swap(slot, j);
    }
}

/// How many shuffles `deal_knowing` draws before it builds a deal instead.
const KNOWING_TRIES: usize = 64;

/// Makes a shuffled pool of tokens agree with what a vain ask told (R5.6):
/// the first `lacks.len()` tokens go to the hidden slots, the one in slot
/// `i` must have none of the colours `lacks[i]`. While a shuffle breaks
/// this it is drawn again, up to `KNOWING_TRIES` times: rejection keeps
/// every agreeing deal as likely as any other. Past that (knowledge so
/// tight that few deals agree), each known slot in turn gets a token drawn
/// among those that fit it and still leave every later known slot a
/// token (`matchable`): always a deal that agrees, though no longer each
/// with the same chance. The true deal agrees, so one exists.
fn deal_knowing(
    rng: &mut GameRng,
    tokens: &mut [TokenId],
    lacks: &[Colours],
    colours: impl Fn(TokenId) -> Colours,
) {
    let agrees = |tokens: &[TokenId]| {
        lacks
            .iter()
            .zip(tokens)
            .all(|(l, t)| !colours(*t).intersects(*l))
    };
    for _ in 0..KNOWING_TRIES {
        if agrees(tokens) {
            return;
        }
        shuffle(rng, tokens);
    }
    if agrees(tokens) {
        return;
    }
    let n = tokens.len();
    let mut pool = [Colours::NONE; MAX_EVIDENCE];
    for (c, t) in pool.iter_mut().zip(tokens.iter()) {
        *c = colours(*t);
    }
    let pool = &pool[..n];
    // The known slots in slot order, and what each lacks; `dealt[i]` the
    // pool index slot i gets.
    let (mut known, mut known_lacks) = ([0usize; MAX_EVIDENCE], [Colours::NONE; MAX_EVIDENCE]);
    let mut k = 0;
    for (slot, l) in lacks.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
        (known[k], known_lacks[k]) = (slot, *l);
        k += 1;
    }
    let mut dealt = [usize::MAX; MAX_EVIDENCE];
    let mut used = 0u64;
    for (step, &slot) in known[..k].iter().enumerate() {
        let later = &known_lacks[step + 1..k];
        let fits = |j: usize| {
            used >> j & 1 == 0
                && !pool[j].intersects(lacks[slot])
                && matchable(later, pool, used | 1 << j)
        };
        let count = (0..n).filter(|j| fits(*j)).count();
        if count == 0 {
            // Only if the knowledge were false: keep the shuffle as it is.
            return;
        }
        let pick = below(rng, count);
        let Some(j) = (0..n).filter(|j| fits(*j)).nth(pick) else {
            return;
        };
        dealt[slot] = j;
        used |= 1 << j;
    }
    // Every other slot, then the bag, in the shuffle's order.
    let mut free = (0..n).filter(|j| used >> j & 1 == 0);
    for d in dealt.iter_mut().take(lacks.len()) {
        if *d == usize::MAX {
            *d = free.next().unwrap_or(0);
        }
    }
    let mut out = [TokenId(0); MAX_EVIDENCE];
    for (o, d) in out.iter_mut().zip(&dealt[..lacks.len()]) {
        *o = tokens[*d];
    }
    for (o, j) in out[lacks.len()..n].iter_mut().zip(free) {
        *o = tokens[j];
    }
    tokens.copy_from_slice(&out[..n]);
}

/// Whether each slot of `lacks` can get a token of `pool` of its own that
/// has none of the slot's colours, the tokens in `used` taken already
/// (Kuhn's augmenting paths: at most 16 slots and 64 tokens).
fn matchable(lacks: &[Colours], pool: &[Colours], used: u64) -> bool {
    fn augment(
        i: usize,
        lacks: &[Colours],
        pool: &[Colours],
        used: u64,
        owner: &mut [usize; MAX_EVIDENCE],
        seen: &mut u64,
    ) -> bool {
        for j in 0..pool.len() {
            if (used | *seen) >> j & 1 != 0 || pool[j].intersects(lacks[i]) {
                continue;
            }
            *seen |= 1 << j;
            if owner[j] == usize::MAX || augment(owner[j], lacks, pool, used, owner, seen) {
                owner[j] = i;
                return true;
            }
        }
        false
    }
    let mut owner = [usize::MAX; MAX_EVIDENCE];
    (0..lacks.len()).all(|i| augment(i, lacks, pool, used, &mut owner, &mut 0))
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
    use super::{deal_knowing, matchable, sort_ids};
    use crate::game::model::{Colours, TokenId};
    use crate::game::state::GameRng;
    use rand::SeedableRng;

    const BLUE: Colours = Colours(1);
    const GREEN: Colours = Colours(4);

    /// R5.6 knowledge so tight that about one shuffle in 924 agrees: six
    /// face-down slots known to lack green, a pool of six blue and six
    /// green tokens. The deal is built (past the shuffles drawn first),
    /// agrees, and is still a deal of the same tokens.
    #[test]
    fn a_deal_agrees_with_what_vain_asks_told_even_when_few_do() {
        let colours = |t: TokenId| if t.0 < 6 { BLUE } else { GREEN };
        let lacks = [GREEN; 6];
        let mut firsts = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut tokens: Vec<TokenId> = (0..12).rev().map(TokenId).collect();
            deal_knowing(&mut rng, &mut tokens, &lacks, colours);
            assert!(
                tokens[..6].iter().all(|t| colours(*t) == BLUE),
                "{tokens:?}"
            );
            let mut sorted = tokens.clone();
            sorted.sort();
            assert_eq!(sorted, (0..12).map(TokenId).collect::<Vec<_>>());
            firsts.insert(tokens[0]);
        }
        // Every blue token gets the first slot in some deal.
        assert_eq!(firsts.len(), 6, "{firsts:?}");
    }

    #[test]
    fn two_slots_that_lack_blue_cannot_share_the_one_token_that_does_not_have_it() {
        let pool = [BLUE, GREEN, BLUE];
        assert!(!matchable(&[BLUE, BLUE], &pool, 0));
        assert!(matchable(&[BLUE], &pool, 0));
        assert!(!matchable(&[BLUE], &pool, 0b010));
        assert!(matchable(&[BLUE, GREEN], &pool, 0));
    }

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
