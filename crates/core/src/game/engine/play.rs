//! A card play, from the hand to the pile: choosing the part, the value
//! part with colour matching and the Editor's ask-a-colour protocol
//! (R5.3–R5.7), the reaction window and chains resolved from the top (R6),
//! and the action part handed to the VM (R5.9, R5.10).

use super::choice::*;
use super::event::{Event, Observer};
use super::{Ctx, PlayError, Progress};
use crate::game::model::*;
use crate::game::rules::{Action, Moved, Rules};
use crate::game::state::*;

impl<O: Observer> Ctx<'_, O> {
    /// Puts a card in play: the value part asks for a target, the action
    /// part opens the opponent's reaction window.
    pub(crate) fn begin_play(
        &mut self,
        card: CardId,
        player: Side,
        part: Part,
        reacting_to: Option<u8>,
    ) {
        self.s.push_frame(|| {
            Frame::Play(PlayFrame {
                card,
                player,
                part: Some(part),
                stage: PlayStage::ChooseTarget,
                target: None,
                cancelled: None,
                reacting_to,
                dest: None,
            })
        });
        if part == Part::Action {
            self.declared();
        }
    }

    /// The play is fully declared: the opponent may react if they can (R6).
    fn declared(&mut self) {
        let stage = if self.s.has_reaction(self.r, self.s.top_play()) {
            PlayStage::Window
        } else {
            self.o.unanswered(self.s, self.s.top_play());
            PlayStage::Resolve
        };
        self.top_play().stage = stage;
    }

    /// `declared` for a value play whose target is chosen, and the play
    /// resolved here when the opponent cannot react: what the next step
    /// would do first, without the trip back through `advance_to` and the
    /// dispatch on the top frame (one step fewer at most value plays,
    /// issue 38).
    fn declared_or_resolved(&mut self) -> Result<(), PlayError> {
        if self.s.has_reaction(self.r, self.s.top_play()) {
            self.top_play().stage = PlayStage::Window;
            Ok(())
        } else {
            self.o.unanswered(self.s, self.s.top_play());
            self.resolve()
        }
    }

    /// The play on top becomes `play` (the top frame must be a play).
    pub(super) fn set_top_play(&mut self, play: PlayFrame) {
        *self.top_play() = play;
    }

    fn top_play(&mut self) -> &mut PlayFrame {
        match self.s.stack.last_mut() {
            Some(Frame::Play(p)) => p,
            _ => unreachable!("top frame is a play"),
        }
    }

    // The play on top is read a field at a time where it is needed, never
    // copied whole: its fields were just written one by one, and a copy
    // reads them back in wider pieces than they were written, which the
    // processor cannot forward from its pending stores (a stall at every
    // step of a play; BENCHMARKS.md session 7).

    /// `buf` (empty) receives the value targets, the options of the
    /// decision that waits for them.
    /// `stage`: the stage of the top frame's play.
    pub(crate) fn step_play(
        &mut self,
        stage: PlayStage,
        buf: &mut Vec<Choice>,
    ) -> Result<Progress, PlayError> {
        match stage {
            PlayStage::ChoosePart | PlayStage::Reveal(_) | PlayStage::Window => {
                Ok(Progress::Decide)
            }
            PlayStage::ChooseTarget | PlayStage::Locked(_) => {
                let s: &State = self.s;
                let p = s.top_play();
                s.value_targets(self.r, p, buf);
                let (card, player) = (p.card, p.player);
                if buf.is_empty() {
                    // docs/open-questions.md#q11: nothing can move; the turn still counts.
                    self.s.stack.drop_top();
                    self.put_card(card, Dest::Discard);
                    return Ok(Progress::Continue);
                }
                Ok(Progress::Ready(Actor::Player(player)))
            }
            PlayStage::Resolve => {
                self.resolve()?;
                Ok(Progress::Continue)
            }
            PlayStage::Running => {
                self.finish_play();
                Ok(Progress::Continue)
            }
        }
    }

    /// The action's program has finished (R5.10): the play on top ends,
    /// its card where the program or its type says.
    pub(super) fn finish_play(&mut self) {
        let p = self.s.top_play();
        let (card, dest) = (p.card, p.dest);
        self.s.stack.drop_top();
        let dest = dest.unwrap_or(match self.r.card(card).card_type {
            CardType::Event => Dest::Removed,
            CardType::Conspirator | CardType::Journalist => Dest::Discard,
        });
        self.put_card(card, dest);
    }

    /// R6.6: a cancelled play does nothing and its card goes where the
    /// canceller sends it; otherwise the value moves or the action runs.
    /// The play is the top frame's.
    pub(super) fn resolve(&mut self) -> Result<(), PlayError> {
        let p = self.s.top_play();
        let (card, player, cancelled, part, target) =
            (p.card, p.player, p.cancelled, p.part, p.target);
        if let Some(dest) = cancelled {
            self.s.stack.drop_top();
            self.o.event(Event::Cancelled { card });
            self.put_card(card, dest);
            return Ok(());
        }
        match part {
            Some(Part::Value) | None => {
                // R5.7: the card goes to the discard pile; the token moves.
                self.s.stack.drop_top();
                self.put_card(card, Dest::Discard);
                if let Some(target) = target {
                    self.move_token(target, self.r.card(card).value, player)?;
                }
            }
            Some(Part::Action) => {
                let idx = (self.s.stack.len() - 1) as u8;
                let prog = self.card_program(card, player)?;
                self.top_play().stage = PlayStage::Running;
                self.s
                    .push_frame(|| Frame::Run(RunFrame::new(prog, player, Some(card), Some(idx))));
            }
        }
        Ok(())
    }

    /// The program of a card's action: computed at load, or now when its
    /// script reads the game. Inlined, so that a program computed at load
    /// is not returned through memory by a call (a call wrote it in parts
    /// and the caller read it back whole, a store-forwarding stall; some
    /// of it remains where `resolve` hands the program to the frame's
    /// builder, about 1 % of a random game, BENCHMARKS.md session 7).
    #[inline]
    pub(crate) fn card_program(&mut self, card: CardId, actor: Side) -> Result<ProgRef, PlayError> {
        let r = self.r;
        match &r.card(card).action {
            Action::Static(_) => Ok(ProgRef::Card(card)),
            Action::Dynamic { unit } => {
                let name = || r.card(card).name.clone();
                self.run_dynamic(*unit, r.script_context(card), actor, name)
            }
        }
    }

    /// `stage`: the stage of the top frame's play.
    pub(crate) fn choose_play(
        &mut self,
        stage: PlayStage,
        choice: Choice,
    ) -> Result<(), PlayError> {
        match (stage, choice) {
            (PlayStage::ChoosePart, Choice::Play { part, .. }) => {
                let p = self.s.top_play();
                let (side, card) = (p.player, p.card);
                self.o.event(Event::Played {
                    side,
                    card,
                    part,
                    reaction: false,
                });
                self.top_play().part = Some(part);
                if part == Part::Action {
                    self.declared();
                } else {
                    self.top_play().stage = PlayStage::ChooseTarget;
                }
            }
            (PlayStage::ChooseTarget | PlayStage::Locked(_), Choice::Token(t)) => {
                let target = self.s.resolve_token(t)?;
                if let Moving::Evidence(tok) = target {
                    if let Some((_, false)) = self.s.on_track(tok) {
                        // R5.5: Nixon flips the face-down token he chose.
                        self.reveal(tok);
                    }
                }
                self.top_play().target = Some(target);
                self.declared_or_resolved()?;
            }
            (PlayStage::ChooseTarget, Choice::Ask(colour)) => {
                let stage = self.ask_colour(colour);
                self.top_play().stage = stage;
            }
            (PlayStage::Reveal(_), Choice::Token(t)) => {
                let target = self.s.resolve_token(t)?;
                if let Moving::Evidence(tok) = target {
                    self.reveal(tok);
                }
                self.top_play().target = Some(target);
                self.declared_or_resolved()?;
            }
            (PlayStage::Window, Choice::Pass) => {
                self.top_play().stage = PlayStage::Resolve;
            }
            (PlayStage::Window, Choice::React(card)) => {
                let reactor = self.s.top_play().player.other();
                let hand = &mut self.s.hands[reactor];
                let Some(i) = hand.iter().position(|c| *c == card) else {
                    return Err(PlayError::internal("reaction card not in hand"));
                };
                hand.remove(i);
                // R6.1: a reaction counts as the reactor's turn.
                self.s.turns_played[reactor] += 1;
                self.s.turn = reactor.other();
                self.top_play().stage = PlayStage::Resolve;
                self.o.event(Event::Played {
                    side: reactor,
                    card,
                    part: Part::Action,
                    reaction: true,
                });
                let idx = (self.s.stack.len() - 1) as u8;
                self.begin_play(card, reactor, Part::Action, Some(idx));
            }
            (stage, choice) => {
                return Err(PlayError::internal(format!(
                    "{choice:?} at play stage {stage:?}"
                )));
            }
        }
        Ok(())
    }

    /// R5.6: the Editor names a colour; Nixon must reveal a match. The
    /// stage the play goes on at: Nixon's reveal, or, with nothing of that
    /// colour face down, the Editor's choice limited to it.
    pub(super) fn ask_colour(&mut self, colour: Colour) -> PlayStage {
        let found = self.s.face_down_slots(self.r, colour) != 0;
        self.o.event(Event::AskedColour { colour, found });
        if found {
            PlayStage::Reveal(colour)
        } else {
            self.s.rule_out(colour);
            PlayStage::Locked(colour)
        }
    }

    /// R5.5, R5.6: a face-down token on the track turns face up.
    pub(super) fn reveal(&mut self, t: TokenId) {
        if let Some((pos, false)) = self.s.on_track(t) {
            self.s.set_evidence(t, EvLoc::on_track(pos, true));
            self.o.event(Event::Revealed { token: t });
        }
    }
}

impl State {
    /// The play on top of the stack (the top frame must be one). Inlined:
    /// left a call, it cost about 1 M instructions of a random game in
    /// `declared`, `resolve` and `finish_play` (issue 38).
    #[inline]
    fn top_play(&self) -> &PlayFrame {
        match self.stack.last() {
            Some(Frame::Play(p)) => p,
            _ => unreachable!("top frame is a play"),
        }
    }

    /// A track token named in a choice, as the engine knows it.
    #[inline]
    pub(crate) fn resolve_token(&self, t: TokenRef) -> Result<Moving, PlayError> {
        match t {
            TokenRef::Initiative => Ok(Moving::Initiative),
            TokenRef::Momentum => Ok(Moving::Momentum),
            TokenRef::Evidence(slot) => self
                .track_token(slot)
                .map(Moving::Evidence)
                .ok_or_else(|| PlayError::internal(format!("no evidence in track slot {slot}"))),
        }
    }

    /// The track slots of the face-down tokens showing `colour`, as bits
    /// (a slot's bit is its place on the track, `rules::MAX_EVIDENCE`).
    pub(crate) fn face_down_slots(&self, r: &Rules, colour: Colour) -> u64 {
        self.track_slots(self.track_face_down & r.tokens_matching(Colours::single(colour)))
    }

    /// The track slots of the tokens of `tokens` (bits by `TokenId`; bits
    /// of tokens off the track are not read), as bits by slot: one shift
    /// and `or` a slot, with no look at where each token lies (the track's
    /// mask is kept by `set_evidence`).
    #[inline]
    fn track_slots(&self, tokens: u64) -> u64 {
        if tokens == 0 {
            return 0;
        }
        let mut slots = 0u64;
        for (slot, t) in self.track.iter().enumerate() {
            // The loader allows at most `rules::MAX_EVIDENCE` (64) tokens,
            // so every slot and every id has its bit.
            slots |= (tokens >> (t.0 & 63) & 1) << slot;
        }
        slots
    }

    /// R5.3–R5.6: what a value play may move, as the options of its
    /// decision (`ValueTargets` says in which order).
    #[inline]
    pub(crate) fn value_targets(&self, r: &Rules, p: &PlayFrame, out: &mut Vec<Choice>) {
        self.value_target_set(r, p.card, p.player, p.stage)
            .write(out);
    }

    /// R5.3–R5.6: what a value play of `card` by `player` at `stage` may
    /// move. Evidence must match the card's colours; Nixon may pick
    /// face-down tokens (he sees them), the Editor asks for a colour
    /// instead; after a negative answer the Editor's choice is limited to
    /// the named colour (the erratum).
    #[inline]
    pub(crate) fn value_target_set(
        &self,
        r: &Rules,
        card: CardId,
        player: Side,
        stage: PlayStage,
    ) -> ValueTargets {
        let card = r.card(card);
        let (colours, locked) = match stage {
            PlayStage::Locked(c) if r.settings.named_colour_locked => (Colours::single(c), true),
            PlayStage::Locked(_) => (card.colours, true),
            _ => (card.colours, false),
        };
        // Issue 38: the tokens kept are one `and` of the track's kept mask
        // with the tokens of the colours (Nixon sees his face-down tokens,
        // R5.5; the Editor those not face down), read in slot order;
        // looking at each token's place and colours was 11 M of a
        // value-plays-only run's 178 M.
        let face_down = self.track_face_down;
        let hidden = if player == Side::Nixon { 0 } else { face_down };
        let slots = self.track_slots(!hidden & r.tokens_matching(colours));
        let any_face_down = face_down != 0;
        let asks = if player == Side::Editor && !locked && any_face_down {
            card.colours
        } else {
            Colours::NONE
        };
        ValueTargets {
            initiative: self.initiative_token.is_some(),
            momentum: self.momentum_token.is_some(),
            slots,
            asks,
        }
    }

    /// Whether the opponent of `play` holds a reaction they may use
    /// against it now. Asked at every declared play: a hand without a
    /// reaction to this part of this type of card (most hands) needs no
    /// look at the triggers. That
    /// first look is inlined where it is asked and the triggers are read
    /// in a call of their own (as one function, every play paid the
    /// register saves of the whole).
    #[inline]
    pub(crate) fn has_reaction(&self, r: &Rules, play: &PlayFrame) -> bool {
        let Some(part) = play.part else {
            return false;
        };
        let played = r.traits(play.card);
        let hand: &[CardId] = &self.hands[play.player.other()];
        hand.iter().any(|&c| r.traits(c).may_answer(part, played))
            && self.reaction_triggered(r, play)
    }

    /// Whether a card in the hand of the opponent of `play` may react to
    /// it (the second half of `has_reaction`).
    #[inline(never)]
    fn reaction_triggered(&self, r: &Rules, play: &PlayFrame) -> bool {
        let Some(part) = play.part else {
            return false;
        };
        let reactor = play.player.other();
        let hand: &[CardId] = &self.hands[reactor];
        for &c in hand {
            if self.may_react_with(r, play, part, reactor, c) {
                return true;
            }
        }
        false
    }

    /// R6: the reaction cards the opponent may play against `play`, in
    /// hand order.
    pub(crate) fn reactions(&self, r: &Rules, play: &PlayFrame, out: &mut Vec<Choice>) {
        let Some(part) = play.part else {
            return;
        };
        let reactor = play.player.other();
        for &c in self.hands[reactor].iter() {
            if self.may_react_with(r, play, part, reactor, c) {
                out.push(Choice::React(c));
            }
        }
    }

    /// Whether, for all the player of `play` can see, the opponent might
    /// answer it (R6): one of the opponent's cards that lies out of sight
    /// (in hand, or in the draw deck, which the player cannot tell apart)
    /// may react to it as things stand. Unlike `has_reaction` the answer
    /// is the same whether the opponent holds such a card or not, so a
    /// front end may act on it without telling which (the hotseat's pause
    /// after a play nobody answered: `Observer::unanswered`).
    pub fn could_be_answered(&self, r: &Rules, play: &PlayFrame) -> bool {
        let Some(part) = play.part else {
            return false;
        };
        let reactor = play.player.other();
        // How many cards a hand holds is in sight (R4.1): an empty one
        // answers nothing, whatever the deck holds.
        if self.hands[reactor].is_empty() {
            return false;
        }
        let out_of_sight = self.hands[reactor].iter().chain(self.decks[reactor].iter());
        out_of_sight
            .copied()
            .any(|c| self.may_react_with(r, play, part, reactor, c))
    }

    /// Whether `reactor` may play `c` against `p` (played for `part`):
    /// its trigger matches the play and its action is usable (R6).
    /// Written as a plain loop in both callers and inlined there: as the
    /// filter of an iterator, the compiler sometimes left it a call per
    /// card (issue 16).
    #[inline(always)]
    fn may_react_with(
        &self,
        r: &Rules,
        p: &PlayFrame,
        part: Part,
        reactor: Side,
        c: CardId,
    ) -> bool {
        let Some(trigger) = &r.card(c).reaction else {
            return false;
        };
        if trigger.part != part || !trigger.types.admits(r.card(p.card).card_type) {
            return false;
        }
        if let Some(m) = trigger.moves {
            let moved = match p.target {
                Some(Moving::Initiative) => Moved::Initiative,
                Some(Moving::Momentum) => Moved::Momentum,
                Some(Moving::Evidence(_)) => Moved::Evidence,
                None => return false,
            };
            if m != moved {
                return false;
            }
        }
        self.action_usable(r, reactor, c, PlayedAs::Reaction)
    }

    pub(crate) fn play_options(&self, r: &Rules, out: &mut Vec<Choice>) -> Actor {
        let Some(Frame::Play(p)) = self.stack.last() else {
            return Actor::Chance;
        };
        match p.stage {
            PlayStage::ChoosePart => {
                out.push(Choice::Play {
                    card: p.card,
                    part: Part::Value,
                });
                // A drawn card (Howard Hunt) is played within the turn in
                // progress (Q5).
                if self.action_usable(r, p.player, p.card, PlayedAs::WithinTurn) {
                    out.push(Choice::Play {
                        card: p.card,
                        part: Part::Action,
                    });
                }
                Actor::Player(p.player)
            }
            PlayStage::ChooseTarget | PlayStage::Locked(_) => {
                self.value_targets(r, p, out);
                Actor::Player(p.player)
            }
            PlayStage::Reveal(c) => {
                ValueTargets::slots(self.face_down_slots(r, c)).write(out);
                Actor::Player(Side::Nixon)
            }
            PlayStage::Window => {
                out.push(Choice::Pass);
                self.reactions(r, p, out);
                Actor::Player(p.player.other())
            }
            PlayStage::Resolve | PlayStage::Running => Actor::Chance,
        }
    }

    pub(crate) fn play_kind(&self, p: &PlayFrame) -> DecisionKind {
        match p.stage {
            PlayStage::ChoosePart => DecisionKind::ChoosePart { card: p.card },
            PlayStage::Reveal(colour) => DecisionKind::Reveal { colour },
            PlayStage::Locked(colour) => DecisionKind::LockedTarget {
                card: p.card,
                colour,
            },
            PlayStage::Window => DecisionKind::Reaction { against: p.card },
            _ => DecisionKind::ValueTarget { card: p.card },
        }
    }
}

/// What a value play may move (R5.3–R5.6), as sets rather than a list:
/// its decision's options are, in this order, the initiative token, the
/// momentum token, the evidence in each slot of `slots` (lowest first),
/// then an ask for each colour of `asks` (`Colours::iter`'s order).
/// One definition serves the list of options (`write`) and a choice by
/// place with no list (`len` and `nth_target`, `engine::by_place`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ValueTargets {
    pub initiative: bool,
    pub momentum: bool,
    /// Bit `i` for the evidence in track slot `i`.
    pub slots: u64,
    pub asks: Colours,
}

impl ValueTargets {
    /// The evidence in each slot of `slots`, and nothing else (Nixon's
    /// reveal, R5.6).
    #[inline]
    pub fn slots(slots: u64) -> ValueTargets {
        ValueTargets {
            initiative: false,
            momentum: false,
            slots,
            asks: Colours::NONE,
        }
    }

    /// How many options there are.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.initiative)
            + usize::from(self.momentum)
            + self.slots.count_ones() as usize
            + self.asks.len()
    }

    /// Option `k` (below `len`), found by counting bits, as what it does:
    /// the token it moves (evidence read from `track`, the track its slots
    /// were found on) or the colour the Editor asks for. Before, the
    /// option was made a `Choice` and read back (`resolve_token`): a play
    /// by place went through three branches on the same pick (issue 38).
    #[inline]
    pub fn nth_target(&self, track: &[TokenId], k: usize) -> Result<Moving, Colour> {
        let (initiative, momentum) = (usize::from(self.initiative), usize::from(self.momentum));
        if k < initiative {
            return Ok(Moving::Initiative);
        }
        if k < initiative + momentum {
            return Ok(Moving::Momentum);
        }
        let k = k - initiative - momentum;
        let evidence = self.slots.count_ones() as usize;
        if k < evidence {
            return Ok(Moving::Evidence(track[nth_bit(self.slots, k) as usize]));
        }
        Err(Colour::ALL[nth_bit(u64::from(self.asks.0), k - evidence) as usize])
    }

    /// Appends the options in their order.
    #[inline]
    pub fn write(&self, out: &mut Vec<Choice>) {
        out.reserve(self.len());
        push_track_tokens(self.initiative, self.momentum, self.slots, out);
        if !self.asks.is_empty() {
            out.extend(self.asks.iter().map(Choice::Ask));
        }
    }
}

/// The place of the `k`-th set bit of `bits`, lowest first (`k` below the
/// number of bits set).
#[inline]
pub(crate) fn nth_bit(bits: u64, k: usize) -> u32 {
    let mut bits = bits;
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// Appends the track's tokens as options, in the order every list of them
/// has: the initiative token, the momentum token, then the evidence by
/// slot (a value play's targets, `ValueTargets`, and a card program's
/// picks on the track, `TrackPicks`).
#[inline]
pub(crate) fn push_track_tokens(
    initiative: bool,
    momentum: bool,
    slots: u64,
    out: &mut Vec<Choice>,
) {
    if initiative {
        out.push(Choice::Token(TokenRef::Initiative));
    }
    if momentum {
        out.push(Choice::Token(TokenRef::Momentum));
    }
    let mut slots = slots;
    while slots != 0 {
        out.push(Choice::Token(TokenRef::Evidence(
            slots.trailing_zeros() as u8
        )));
        slots &= slots - 1;
    }
}
