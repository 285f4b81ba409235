//! The round (R3): the initial phase (R4), whose turn it is in the card
//! phase (R5.1, R5.2, R6.1), the evaluation phase in its exact order (R7),
//! pinning (R7.6), and random draws as chance decisions for the solver.

use super::choice::*;
use super::event::{Event, Observer, TokenKind};
use super::{Ctx, PlayError, Progress};
use crate::game::model::*;
use crate::game::rules::{CardTraits, QuickRequirement, Rules};
use crate::game::state::*;

impl<O: Observer> Ctx<'_, O> {
    /// No play in progress: start a phase, pass the turn, or ask for a card
    /// (whose options it lists in `buf`).
    ///
    /// Work that follows at once is done in the same step (a new round
    /// starts its initial phase, which deals at once), so the engine's
    /// loop turns fewer times; the order of the work and of its events is
    /// the rules' all the same.
    pub(crate) fn step_idle(&mut self, buf: &mut Vec<Choice>) -> Progress {
        match self.s.phase {
            Phase::Initial => self.begin_initial_phase(),
            Phase::Cards => {
                let turn = self.s.turn;
                if self.s.hands[turn].is_empty() {
                    if self.s.hands[turn.other()].is_empty() {
                        // R7: neither player has cards in hand.
                        self.s.phase = Phase::Evaluation;
                        self.s.push_frame(|| Frame::Evaluation {
                            step: EvalStep::FIRST,
                        });
                    } else {
                        // R5.1: a player with no cards is skipped.
                        self.s.turn = turn.other();
                    }
                    return Progress::Continue;
                }
                Progress::Ready(self.s.idle_options(self.r, buf))
            }
            Phase::Evaluation => {
                // The evaluation frame is done: a new round (R3).
                self.s.round += 1;
                self.s.phase = Phase::Initial;
                self.s.turns_played = BySide::default();
                self.s.forbidden.clear();
                self.o.event(Event::RoundStarted {
                    round: self.s.round,
                    initiative: self.s.initiative,
                });
                self.begin_initial_phase()
            }
            Phase::Over => Progress::Continue,
        }
    }

    /// R4 begins: its frame, and its first step at once. When the
    /// generator makes every draw (no explicit chance), the phase waits
    /// for nothing: it is carried out whole with no frame (`step_setup`
    /// does the same work a step at a time, its frame keeping count, for
    /// draws left to chance). Issue 38: the frame's push, updates and drop
    /// were a tenth of a value-plays-only game's setup work.
    fn begin_initial_phase(&mut self) -> Progress {
        if !self.s.explicit_chance {
            let n = &self.r.numbers;
            let holder = self.s.initiative;
            self.draw_cards(holder, n.hand_size_with_initiative);
            self.draw_cards(holder.other(), n.hand_size_without_initiative);
            // Nixon draws from the end of the bag onto 0, face down;
            // docs/open-questions.md#q2: an empty bag gives what it has.
            for _ in 0..n.evidence_per_round {
                let Some(t) = self.s.bag.pop() else {
                    break;
                };
                self.s.track.push(t);
                self.s.set_evidence(t, EvLoc::on_track(0, false));
                self.o.event(Event::EvidenceDrawn {
                    token: t,
                    pos: 0,
                    face_up: false,
                });
            }
            self.s.phase = Phase::Cards;
            self.s.turn = self.s.initiative;
            return Progress::Continue;
        }
        self.s.push_frame(|| Frame::Setup {
            dealt: false,
            cards_dealt: 0,
            evidence_left: 0,
        });
        self.step_setup(false, 0, 0)
    }

    /// R5.1: the player on turn plays a card for one of its parts.
    pub(crate) fn choose_idle(&mut self, choice: Choice) -> Result<(), PlayError> {
        let Choice::Play { card, part } = choice else {
            return Err(PlayError::internal(format!("{choice:?} on an idle turn")));
        };
        let side = self.s.turn;
        let Some(i) = self.s.hands[side].iter().position(|c| *c == card) else {
            return Err(PlayError::internal("played card not in hand"));
        };
        self.play_from_hand(i, part);
        self.begin_play(card, side, part, None);
        Ok(())
    }

    /// R5.1: the side on turn plays card `i` of its hand for `part`: the
    /// card leaves the hand, the turn counts and passes (R5.2, R6.1: turns
    /// alternate after every card played). The card played. One place for
    /// a turn taken from a list (`choose_idle`) and by place
    /// (`turn_by_place`).
    #[inline(always)]
    pub(crate) fn play_from_hand(&mut self, i: usize, part: Part) -> CardId {
        let side = self.s.turn;
        let card = self.s.hands[side].remove(i);
        self.s.turns_played[side] += 1;
        self.s.turn = side.other();
        self.o.event(Event::Played {
            side,
            card,
            part,
            reaction: false,
        });
        card
    }

    /// R4: deal cards, then Nixon draws evidence face down onto the 0 space.
    /// `dealt`, `evidence_left`: the top frame's (a `Setup`).
    /// Every draw the generator makes is done in this one step; a draw left
    /// to a chance decision (`explicit_chance`) stops it.
    pub(crate) fn step_setup(
        &mut self,
        dealt: bool,
        cards_dealt: u8,
        evidence_left: u8,
    ) -> Progress {
        let mut evidence_left = evidence_left;
        if !dealt {
            let n = &self.r.numbers;
            let holder = self.s.initiative;
            if self.s.explicit_deals {
                // One card at a time, each chance's decision (`deal_options`).
                let mut cards_dealt = cards_dealt;
                while let Some(side) = self.s.dealing_to(self.r, cards_dealt) {
                    if self.refill_deck(side) {
                        self.set_setup_dealt(cards_dealt);
                        return Progress::Decide;
                    }
                    // Nothing left to draw: that side's hand stays short.
                    cards_dealt = if side == holder {
                        n.hand_size_with_initiative
                    } else {
                        n.hand_size_with_initiative + n.hand_size_without_initiative
                    };
                }
            } else {
                self.draw_cards(holder, n.hand_size_with_initiative);
                self.draw_cards(holder.other(), n.hand_size_without_initiative);
            }
            evidence_left = n.evidence_per_round;
            self.set_setup(true, evidence_left);
        }
        loop {
            if evidence_left == 0 || self.s.bag.is_empty() {
                // docs/open-questions.md#q2: an empty bag gives what it has.
                self.s.stack.drop_top();
                self.s.phase = Phase::Cards;
                self.s.turn = self.s.initiative;
                return Progress::Continue;
            }
            if self.s.explicit_chance {
                return Progress::Decide;
            }
            let last = self.s.bag.len() - 1;
            self.setup_draw(last);
            evidence_left -= 1;
        }
    }

    fn set_setup(&mut self, dealt: bool, evidence_left: u8) {
        if let Some(Frame::Setup {
            dealt: d,
            evidence_left: e,
            ..
        }) = self.s.stack.last_mut()
        {
            *d = dealt;
            *e = evidence_left;
        }
    }

    fn set_setup_dealt(&mut self, cards_dealt: u8) {
        if let Some(Frame::Setup { cards_dealt: c, .. }) = self.s.stack.last_mut() {
            *c = cards_dealt;
        }
    }

    /// With explicit deals: a deck that ran out takes the discard pile (R4.1)
    /// as it is, since chance picks each card drawn from it. Whether a card
    /// can be drawn now.
    pub(crate) fn refill_deck(&mut self, side: Side) -> bool {
        if self.s.decks[side].is_empty() && !self.s.discards[side].is_empty() {
            let pile = std::mem::take(&mut self.s.discards[side]);
            self.s.decks[side] = pile;
            self.o.event(Event::DeckReshuffled { side });
        }
        !self.s.decks[side].is_empty()
    }

    /// With explicit deals: card `index` of `side`'s deck, chance's pick.
    pub(crate) fn take_from_deck(&mut self, side: Side, index: usize) -> Option<CardId> {
        (index < self.s.decks[side].len()).then(|| self.s.decks[side].remove(index))
    }

    fn setup_draw(&mut self, index: usize) {
        if let Some(t) = self.take_from_bag(index) {
            self.put_on_track(t, 0, false);
            self.o.event(Event::EvidenceDrawn {
                token: t,
                pos: 0,
                face_up: false,
            });
        }
        if let Some(Frame::Setup { evidence_left, .. }) = self.s.stack.last_mut() {
            *evidence_left -= 1;
        }
    }

    pub(crate) fn choose_setup(&mut self, choice: Choice) -> Result<(), PlayError> {
        if let Some(&Frame::Setup {
            dealt: false,
            cards_dealt,
            ..
        }) = self.s.stack.last()
        {
            let Choice::Chance(i) = choice else {
                return Err(PlayError::internal(format!("{choice:?} during the deal")));
            };
            let side = self.s.dealing_to(self.r, cards_dealt);
            let card = side.and_then(|side| Some((side, self.take_from_deck(side, i as usize)?)));
            let Some((side, card)) = card else {
                return Err(PlayError::internal("no card to deal"));
            };
            self.s.hands[side].push(card);
            self.o.event(Event::CardsDrawn { side, count: 1 });
            self.set_setup_dealt(cards_dealt + 1);
            return Ok(());
        }
        match choice {
            Choice::Chance(i) => {
                self.setup_draw(i as usize);
                Ok(())
            }
            other => Err(PlayError::internal(format!(
                "{other:?} during the initial phase"
            ))),
        }
    }

    /// R7: the evaluation phase, in its exact order: its steps one after
    /// the other until one waits (a token to pin puts its frame on top),
    /// the game ends or the phase is done. `step`: the top frame's (an
    /// `Evaluation`).
    pub(crate) fn step_evaluation(&mut self, step: EvalStep) -> Result<Progress, PlayError> {
        let depth = self.s.stack.len();
        let mut step = step;
        loop {
            if step == EvalStep::Done {
                self.s.stack.drop_top();
                return Ok(Progress::Continue);
            }
            let next = self.evaluation_step(step)?;
            if self.s.outcome.is_some() || self.s.stack.len() != depth {
                // The frame learns where the evaluation goes on only
                // when the loop leaves it, after the step's frames went
                // on above it: written before, while on top, it was read
                // back whole by the push just after (a pin's frame, most
                // rounds), a store the processor could not forward
                // (issue 38).
                if let Some(Frame::Evaluation { step }) = self.s.stack.get_mut(depth - 1) {
                    *step = next;
                }
                return Ok(Progress::Continue);
            }
            step = next;
        }
    }

    /// One step of R7 (not `Done`): its effects, and the step that comes
    /// next (the same one while it has tokens left to pin).
    fn evaluation_step(&mut self, step: EvalStep) -> Result<EvalStep, PlayError> {
        Ok(match step {
            EvalStep::ZeroToBag => {
                // R7.1: evidence on the 0 space goes back to the bag, in
                // track order. Walked slot by slot (a token sent back
                // leaves its slot to the next), with no list of them made
                // first (issue 16).
                let mut slot = 0;
                while let Some(&t) = self.s.track.get(slot) {
                    if matches!(self.s.on_track(t), Some((0, _))) {
                        self.return_to_bag(t);
                    } else {
                        slot += 1;
                    }
                }
                EvalStep::Initiative
            }
            EvalStep::Initiative => {
                // R7.2: the initiative goes to the side it is on; on 0, to the
                // player who did not hold it. Skipped if gained this round.
                if let Some(p) = self.s.initiative_token {
                    let side = match p.signum() {
                        1 => Side::Editor,
                        -1 => Side::Nixon,
                        _ => self.s.initiative.other(),
                    };
                    self.gain_initiative(side);
                }
                EvalStep::Momentum
            }
            EvalStep::Momentum => {
                // R7.3: the momentum token goes to the side it is on (its
                // card's space instruction runs at once); on 0 it returns to
                // the supply. Skipped if gained this round.
                if let Some(p) = self.s.momentum_token {
                    match p.signum() {
                        0 => {
                            self.s.momentum_token = None;
                            self.s.momentum_supply += 1;
                            self.o.event(Event::MomentumReturned);
                        }
                        sign => {
                            let side = if sign > 0 { Side::Editor } else { Side::Nixon };
                            self.gain_momentum(side)?;
                        }
                    }
                }
                EvalStep::NewTokens
            }
            EvalStep::NewTokens => {
                // R7.4: the initiative token and a new momentum token on 0; an
                // empty supply wins for Nixon at once (R8.2, R10.5).
                self.s.initiative_token = Some(0);
                self.o.event(Event::Moved {
                    token: TokenKind::Initiative,
                    from: 0,
                    to: 0,
                });
                if self.s.momentum_supply == 0 {
                    self.win(Side::Nixon, WinCause::EmptySupply);
                } else {
                    self.s.momentum_supply -= 1;
                    self.s.momentum_token = Some(0);
                    self.o.event(Event::NewMomentum);
                }
                EvalStep::HolderPins
            }
            EvalStep::HolderPins | EvalStep::OtherPins => {
                // R7.5: the initiative holder pins all of theirs first.
                let side = if step == EvalStep::HolderPins {
                    self.s.initiative
                } else {
                    self.s.initiative.other()
                };
                let next = self.s.track.iter().copied().find(
                    |t| matches!(self.s.on_track(*t), Some((p, _)) if p.signum() == side.sign()),
                );
                match next {
                    Some(t) => {
                        self.gain_evidence(t, side);
                        step
                    }
                    None => step.next(),
                }
            }
            EvalStep::Done => unreachable!("the evaluation's frame ends in `step_evaluation`"),
        })
    }

    /// R7.6: a token waits for its space; none left means docs/open-questions.md#q1.
    /// The spaces found are the decision's options (in `buf`).
    /// `token`, `pinner`: the top frame's (a `Pin`).
    pub(crate) fn step_pin(
        &mut self,
        token: TokenId,
        pinner: Side,
        buf: &mut Vec<Choice>,
    ) -> Progress {
        let spaces = self.s.pin_spaces(self.r, token);
        if spaces.is_empty() {
            self.s.stack.drop_top();
            self.unpinnable(token);
            return Progress::Continue;
        }
        super::push_spaces(spaces, buf);
        Progress::Ready(Actor::Player(pinner))
    }

    /// `token`, `pinner`: the top frame's (a `Pin`).
    pub(crate) fn choose_pin(
        &mut self,
        token: TokenId,
        pinner: Side,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let Choice::Space(space) = choice else {
            return Err(PlayError::internal(format!("{choice:?} while pinning")));
        };
        self.s.stack.drop_top();
        self.pin_at(token, space, pinner)?;
        Ok(())
    }
}

impl State {
    /// R7.6: empty evidence spaces whose slip matches one of the token's
    /// colours (the taken spaces are kept by `State::set_evidence`).
    pub(crate) fn pin_spaces(&self, r: &Rules, token: TokenId) -> SpaceSet {
        r.board
            .matching(r.token_colours(token))
            .minus(self.board_taken)
    }

    pub(crate) fn pin_options(&self, r: &Rules, token: TokenId, out: &mut Vec<Choice>) {
        super::push_spaces(self.pin_spaces(r, token), out);
    }

    /// R5.1: every card in hand, for its value, and for its action where it
    /// may be used now (R5.11, R5.12): the options of the turn
    /// (`TurnOptions` says in which order).
    #[inline]
    pub(crate) fn idle_options(&self, r: &Rules, out: &mut Vec<Choice>) -> Actor {
        let side = self.turn;
        let hand: &[CardId] = &self.hands[side];
        let usable = self.turn_options(r).usable;
        out.reserve(2 * hand.len());
        // Each card's action is written whether it is usable or not, and
        // kept by counting it (the next card's value writes over one that
        // is not): a branch on it went one way or another from card to
        // card, and the processor guessed it wrong too often to pay.
        let spare = out.spare_capacity_mut();
        let mut n = 0;
        for (i, &card) in hand.iter().enumerate() {
            spare[n].write(Choice::Play {
                card,
                part: Part::Value,
            });
            spare[n + 1].write(Choice::Play {
                card,
                part: Part::Action,
            });
            n += 1 + (usable >> i & 1) as usize;
        }
        // SAFETY: room for two options a card was reserved above, and the
        // first `n` slots past the length were written in the loop.
        unsafe { out.set_len(out.len() + n) };
        Actor::Player(side)
    }

    /// R5.1: the options of the turn of the side on turn, as a set.
    #[inline]
    pub(crate) fn turn_options(&self, r: &Rules) -> TurnOptions {
        let side = self.turn;
        let hand: &[CardId] = &self.hands[side];
        // `action_usable` for each card, its requirement read as one bit
        // of the requirements met this turn instead of a branch on its
        // kind, which went one way or another from card to card (issue
        // 16); a reaction card's bit is one the mask never sets (issue
        // 38). A round that forbids something, or a card whose
        // requirement the mask does not hold, asks `action_usable`.
        let met = self.quick_requirements_met(side, PlayedAs::Turn);
        let mut usable = 0u64;
        for (i, &card) in hand.iter().enumerate() {
            let code = r.traits(card).turn_code();
            // A hand holds only its side's cards, and the loader allows
            // at most `rules::MAX_CARDS_A_SIDE` a side: each card has its bit.
            // A code of 64 or more (`TURN_NEVER`, `TURN_ASK`) reads no bit
            // of the mask: a masked shift of one word, where a shift of a
            // `u128` took twice the instructions (issue 38).
            usable |= (met >> (code & 63) & u64::from(code < 64)) << i;
        }
        // The cards to ask are looked for only in a game that has some
        // (the shipped one has none: a third of the walk saved, issue 38).
        let ask = if r.any_turn_ask() {
            hand.iter().enumerate().fold(0u64, |ask, (i, &card)| {
                ask | u64::from(r.traits(card).turn_code() == CardTraits::TURN_ASK) << i
            })
        } else {
            0
        };
        if ask != 0 || !self.forbidden.is_empty() {
            usable = self.usable_asked(r, usable, ask);
        }
        TurnOptions {
            cards: hand.len(),
            usable,
        }
    }

    /// `turn_options` for the cards whose action `action_usable` must say:
    /// those of `ask`, or all of them in a round that forbids something.
    /// Out of line: most turns need none of it, and inlined it made every
    /// turn save the registers it uses.
    #[cold]
    #[inline(never)]
    fn usable_asked(&self, r: &Rules, usable: u64, ask: u64) -> u64 {
        let side = self.turn;
        let all = !self.forbidden.is_empty();
        let mut usable = usable;
        for (i, &card) in self.hands[side].iter().enumerate() {
            if all || ask >> i & 1 != 0 {
                let ok = self.action_usable(r, side, card, PlayedAs::Turn);
                usable = usable & !(1 << i) | u64::from(ok) << i;
            }
        }
        usable
    }

    /// Which quick requirements ([`CardTraits::requirement_code`]) a card
    /// of `side` played `how` meets now: bit `code` set for each met (bits
    /// 0 to 63).
    pub(crate) fn quick_requirements_met(&self, side: Side, how: PlayedAs) -> u64 {
        1 << CardTraits::QUICK_NONE
            | u64::from(self.turn_of_play(side, how) >= 2) << CardTraits::QUICK_NOT_FIRST_TURN
            | self.pictures_in_supply << CardTraits::QUICK_PICTURE
    }

    /// Chance outcomes of a draw from the bag: one per kind of token (the
    /// first of its kind in the bag stands for all of them).
    pub(crate) fn chance_draw_options(&self, r: &Rules, out: &mut Vec<Choice>) -> Actor {
        let key = |t: TokenId| (r.token(t).colours, r.token(t).momentum_symbol);
        for (i, t) in self.bag.iter().enumerate() {
            if !self.bag[..i].iter().any(|u| key(*u) == key(*t)) {
                out.push(Choice::Chance(i as u8));
            }
        }
        Actor::Chance
    }

    /// How many tokens of the bag each draw outcome stands for.
    pub(crate) fn chance_draw_kind(&self, r: &Rules) -> DecisionKind {
        let key = |t: TokenId| (r.token(t).colours, r.token(t).momentum_symbol);
        let mut weights = Vec::new();
        for (i, t) in self.bag.iter().enumerate() {
            if !self.bag[..i].iter().any(|u| key(*u) == key(*t)) {
                weights.push(self.bag.iter().filter(|u| key(**u) == key(*t)).count() as u32);
            }
        }
        DecisionKind::Chance {
            what: ChanceOf::EvidenceDrawn,
            weights,
        }
    }

    /// Whether `side` may use `card`'s action part now, played `how`:
    /// requirement met (R5.11), not forbidden this round, and a reaction card
    /// only as a reaction (R5.12).
    #[inline(always)]
    pub fn action_usable(&self, r: &Rules, side: Side, card: CardId, how: PlayedAs) -> bool {
        // Asked for every card in hand at every turn: read from the packed
        // traits, and the card itself only for a requirement.
        let t = r.traits(card);
        if t.is_reaction() != (how == PlayedAs::Reaction) {
            return false;
        }
        // Most rounds forbid nothing.
        let forbidden: &[_] = &self.forbidden;
        if !forbidden.is_empty()
            && forbidden
                .iter()
                .any(|f| f.forbids(side, Part::Action, t.card_type()))
        {
            return false;
        }
        match t.requirement() {
            QuickRequirement::None => true,
            QuickRequirement::NotFirstTurnOfRound => self.turn_of_play(side, how) >= 2,
            QuickRequirement::PictureInSupply(p) => self.pictures[p.index()] == PicLoc::Supply,
            QuickRequirement::Other => match &r.card(card).requirement {
                None => true,
                Some(req) => self.requirement_met(req, self.turn_of_play(side, how)),
            },
        }
    }

    /// Which of `side`'s turns this round (1 = the first) a card played `how`
    /// belongs to. A turn or a reaction (R6.1) starts a new turn; a card
    /// played within a turn (Howard Hunt's drawn card, the action The system
    /// works carries out) belongs to the turn in progress (Q5).
    pub fn turn_of_play(&self, side: Side, how: PlayedAs) -> u8 {
        let taken = self.turns_played[side];
        match how {
            PlayedAs::Turn | PlayedAs::Reaction => taken.saturating_add(1),
            PlayedAs::WithinTurn => taken,
        }
    }

    /// `turn`: the ordinal of the turn the card is played on (`turn_of_play`).
    /// Asked only of a requirement the card's traits do not hold
    /// (`QuickRequirement::Other`, a combined one): the single ones are
    /// read from the traits and the kept picture mask.
    pub(crate) fn requirement_met(&self, req: &crate::game::rules::Requirement, turn: u8) -> bool {
        use crate::game::rules::Requirement as R;
        match req {
            R::PictureInSupply(p) => self.pictures[p.index()] == PicLoc::Supply,
            R::NotFirstTurnOfRound => turn >= 2,
            R::All(list) => list.iter().all(|r| self.requirement_met(r, turn)),
        }
    }
}

/// The options of a turn (R5.1) as a set rather than a list: for each
/// card of the hand in order, its value, then its action where usable.
/// One definition serves the list of options (`State::idle_options`) and
/// a choice by place with no list (`len` and `nth`, `engine::by_place`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TurnOptions {
    /// The cards in hand.
    pub cards: usize,
    /// Bit `i` when the action of the hand's card `i` may be used.
    pub usable: u64,
}

impl TurnOptions {
    /// How many options there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.cards + self.usable.count_ones() as usize
    }

    /// Option `k` (below `len`): the place in hand of the card played, and
    /// its part.
    #[inline]
    pub fn nth(&self, k: usize) -> (usize, Part) {
        if self.cards <= 32 {
            // Bit `p` of `values` when option `p` is a card's value (its
            // action, if usable, follows it): the card is then the count
            // of values up to `k`, with no branch on where `k` falls,
            // which the walk below took at a random place each turn (the
            // processor guessed it wrong about once a turn, issue 38).
            // At most 32 cards: 64 options at most, one word.
            let (mut values, mut p) = (0u64, 0);
            for i in 0..self.cards {
                values |= 1 << p;
                p += 1 + (self.usable >> i & 1) as usize;
            }
            let upto = values & (u64::MAX >> (63 - k));
            let part = [Part::Action, Part::Value][(values >> k & 1) as usize];
            return (upto.count_ones() as usize - 1, part);
        }
        let mut k = k;
        for i in 0..self.cards {
            if k == 0 {
                return (i, Part::Value);
            }
            k -= 1;
            if self.usable >> i & 1 != 0 {
                if k == 0 {
                    return (i, Part::Action);
                }
                k -= 1;
            }
        }
        unreachable!("option {k} past the turn's {} options", self.len())
    }
}
