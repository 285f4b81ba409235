//! The primitive changes every rule is made of: moving and gaining tokens
//! (R5.3, R5.8), pinning (R7.6), awarding momentum (R7.3), drawing and
//! discarding, and the win checks (R8) that follow each change. Every change
//! of place goes through here, so nothing is created or lost.

use super::event::{Event, Observer, TokenKind};
use super::{Ctx, PlayError};
use crate::game::model::*;
use crate::game::rules::Action;
use crate::game::rules::{Overflow, Unpinnable};
use crate::game::state::*;

impl<O: Observer> Ctx<'_, O> {
    pub(crate) fn track_len(&self) -> i8 {
        self.r.numbers.track_length
    }

    pub(crate) fn win(&mut self, winner: Side, cause: WinCause) {
        if self.s.outcome.is_none() {
            let outcome = Outcome { winner, cause };
            self.s.outcome = Some(outcome);
            self.s.phase = Phase::Over;
            self.o.event(Event::Won(outcome));
        }
    }

    /// R8.3: checked whenever something face up appears on the board.
    pub(crate) fn check_connection(&mut self) {
        if super::board::informants_connected(
            self.r,
            self.s,
            self.r.numbers.informants_to_connect as usize,
        ) {
            self.win(Side::Editor, WinCause::Connected);
        }
    }

    /// R5.3: moves a research-track token `steps` toward `toward`; steps
    /// beyond the last space are lost and the token is gained (R5.8). A
    /// face-down evidence token that moves is turned face up (R5.13).
    ///
    /// This and the track and bag moves below are marked `#[inline]`: the
    /// compiler had left them calls from the engine's loop and the VM, and
    /// inlined they cost 1.4 % fewer instructions and guessed branches
    /// (BENCHMARKS.md session 9; the draws, the gains and the pin were
    /// tried the same way and were slower).
    #[inline]
    pub(crate) fn move_token(
        &mut self,
        token: Moving,
        steps: u8,
        toward: Side,
    ) -> Result<(), PlayError> {
        let len = self.track_len();
        let shift = |p: i8| (p + toward.sign() * steps as i8).clamp(-len, len);
        match token {
            Moving::Initiative => {
                if let Some(p) = self.s.initiative_token {
                    let np = shift(p);
                    self.o.event(Event::Moved {
                        token: TokenKind::Initiative,
                        from: p,
                        to: np,
                    });
                    self.s.initiative_token = Some(np);
                    if np.abs() == len {
                        self.gain_initiative(toward);
                    }
                }
            }
            Moving::Momentum => {
                if let Some(p) = self.s.momentum_token {
                    let np = shift(p);
                    self.o.event(Event::Moved {
                        token: TokenKind::Momentum,
                        from: p,
                        to: np,
                    });
                    self.s.momentum_token = Some(np);
                    if np.abs() == len {
                        self.gain_momentum(toward)?;
                    }
                }
            }
            Moving::Evidence(t) => {
                if let Some((p, face_up)) = self.s.on_track(t) {
                    if !face_up {
                        self.o.event(Event::Flipped { token: t });
                    }
                    let np = shift(p);
                    self.o.event(Event::Moved {
                        token: TokenKind::Evidence(t),
                        from: p,
                        to: np,
                    });
                    self.s.set_evidence(t, EvLoc::on_track(np, true));
                    if np.abs() == len {
                        self.gain_evidence(t, toward);
                    }
                }
            }
        }
        Ok(())
    }

    /// R5.13 "to space k": puts a token on space `space` of `side`'s half
    /// (0 = the centre); the last space gains it. Evidence keeps its face.
    pub(crate) fn place_token(
        &mut self,
        token: Moving,
        space: u8,
        side: Side,
    ) -> Result<(), PlayError> {
        let len = self.track_len();
        let to = (side.sign() * (space as i8).min(len)).clamp(-len, len);
        match token {
            Moving::Initiative => {
                if let Some(p) = self.s.initiative_token {
                    self.o.event(Event::Moved {
                        token: TokenKind::Initiative,
                        from: p,
                        to,
                    });
                    self.s.initiative_token = Some(to);
                    if to.abs() == len {
                        self.gain_initiative(side);
                    }
                }
            }
            Moving::Momentum => {
                if let Some(p) = self.s.momentum_token {
                    self.o.event(Event::Moved {
                        token: TokenKind::Momentum,
                        from: p,
                        to,
                    });
                    self.s.momentum_token = Some(to);
                    if to.abs() == len {
                        self.gain_momentum(side)?;
                    }
                }
            }
            Moving::Evidence(t) => {
                if let EvLoc::Track {
                    pos: p,
                    face_up,
                    ruled_out,
                } = self.s.evidence[t.index()]
                {
                    self.o.event(Event::Moved {
                        token: TokenKind::Evidence(t),
                        from: p,
                        to,
                    });
                    // It keeps its face and what is known of it (R5.6).
                    let at = EvLoc::Track {
                        pos: to,
                        face_up,
                        ruled_out,
                    };
                    self.s.set_evidence(t, at);
                    if to.abs() == len {
                        self.gain_evidence(t, side);
                    }
                }
            }
        }
        Ok(())
    }

    /// R5.8 / R7.2: the initiative token leaves the track; `side` holds the
    /// initiative (the initiative card turns at once).
    pub(crate) fn gain_initiative(&mut self, side: Side) {
        self.s.initiative_token = None;
        self.s.initiative = side;
        self.o.event(Event::Gained {
            side,
            token: TokenKind::Initiative,
        });
    }

    /// R5.8 / R7.3: the momentum token leaves the track for `side`'s card.
    pub(crate) fn gain_momentum(&mut self, side: Side) -> Result<(), PlayError> {
        self.s.momentum_token = None;
        self.o.event(Event::Gained {
            side,
            token: TokenKind::Momentum,
        });
        self.award_momentum(side)
    }

    /// R7.3: onto the lowest empty space of the momentum card; its
    /// instruction is carried out at once; R8.1 is checked.
    pub(crate) fn award_momentum(&mut self, side: Side) -> Result<(), PlayError> {
        let r = self.r;
        let card = &r.momentum_cards[side];
        let filled = self.s.momentum_cards[side] as usize;
        if filled >= card.spaces.len() {
            match (side, self.r.settings.editor_momentum_overflow) {
                (Side::Editor, Overflow::ReturnToSupply) => {
                    self.s.momentum_supply += 1;
                    self.o.event(Event::MomentumReturned);
                }
                _ => {
                    self.s.momentum_removed += 1;
                    self.o.event(Event::MomentumRemoved);
                }
            }
            return Ok(());
        }
        self.s.momentum_cards[side] += 1;
        self.o.event(Event::MomentumAwarded {
            side,
            space: filled as u8,
        });
        if side == Side::Nixon && self.s.momentum_cards[side] >= self.r.numbers.momentum_to_win {
            self.win(Side::Nixon, WinCause::Momentum);
            return Ok(());
        }
        let prog = match &card.spaces[filled].action {
            None => return Ok(()),
            Some(Action::Static(p)) if p.is_empty() => return Ok(()),
            Some(Action::Static(_)) => ProgRef::Space(side, filled as u8),
            Some(Action::Dynamic { unit }) => {
                let ctx = r.space_script_context(side, filled);
                let label = || format!("{} space {}", card.name, filled + 1);
                self.run_dynamic(*unit, ctx, side, label)?
            }
        };
        self.s
            .push_frame(|| Frame::Run(RunFrame::new(prog, side, None, None)));
        Ok(())
    }

    /// R5.8: an evidence token reaching space 5 leaves the track and is
    /// pinned at once by the player who gained it.
    pub(crate) fn gain_evidence(&mut self, t: TokenId, side: Side) {
        self.take_off_track(t);
        self.o.event(Event::Gained {
            side,
            token: TokenKind::Evidence(t),
        });
        self.begin_pin(t, side);
    }

    /// Takes a token off the research track (it is then `Held`).
    #[inline]
    pub(crate) fn take_off_track(&mut self, t: TokenId) {
        if let Some(i) = self.s.track.iter().position(|x| *x == t) {
            self.s.track.remove(i);
        }
        self.s.set_evidence(t, EvLoc::Held);
    }

    /// Puts a token on the research track, as the newest slot.
    #[inline]
    pub(crate) fn put_on_track(&mut self, t: TokenId, pos: i8, face_up: bool) {
        if let Some(i) = self.s.track.iter().position(|x| *x == t) {
            self.s.track.remove(i);
        }
        self.s.track.push(t);
        // A token that stays face down on the track is still known to lack
        // what it lacked (R5.6); one from anywhere else is not.
        let ruled_out = if face_up {
            Colours::NONE
        } else {
            self.s.ruled_out(t)
        };
        let at = EvLoc::Track {
            pos,
            face_up,
            ruled_out,
        };
        self.s.set_evidence(t, at);
    }

    /// R7.6: the token waits for its space in a `Pin` frame.
    pub(crate) fn begin_pin(&mut self, t: TokenId, pinner: Side) {
        self.s.set_evidence(t, EvLoc::Held);
        self.s.push_frame(|| Frame::Pin { token: t, pinner });
    }

    /// R7.6: pins `t` on `space`, face up for the Editor, face down for
    /// Nixon; the momentum symbol moves the momentum token toward the pinner.
    pub(crate) fn pin_at(
        &mut self,
        t: TokenId,
        space: SpaceId,
        pinner: Side,
    ) -> Result<(), PlayError> {
        let face_up = pinner == Side::Editor;
        self.s.set_evidence(t, EvLoc::Board { space, face_up });
        self.o.event(Event::Pinned {
            side: pinner,
            token: t,
            space,
            face_up,
        });
        if face_up {
            self.check_connection();
            if self.s.outcome.is_some() {
                return Ok(());
            }
        }
        if self.r.token(t).momentum_symbol && self.r.settings.momentum_symbol_steps > 0 {
            // R10.3: nothing happens while the momentum token is off the track.
            self.move_token(
                Moving::Momentum,
                self.r.settings.momentum_symbol_steps,
                pinner,
            )?;
        }
        Ok(())
    }

    /// docs/open-questions.md#q1: a token with no empty matching space.
    pub(crate) fn unpinnable(&mut self, t: TokenId) {
        self.o.event(Event::Unpinnable { token: t });
        match self.r.settings.unpinnable_evidence {
            Unpinnable::ReturnToBag => self.return_to_bag(t),
            Unpinnable::Reserve => self.s.set_evidence(t, EvLoc::Reserve),
        }
    }

    /// Returns a token to the bag at a random place (a bag has no order).
    #[inline]
    pub(crate) fn return_to_bag(&mut self, t: TokenId) {
        if let Some(i) = self.s.track.iter().position(|x| *x == t) {
            self.s.track.remove(i);
        }
        let at = self.s.below(self.s.bag.len() + 1);
        self.s.bag.insert(at, t);
        self.s.set_evidence(t, EvLoc::Bag);
        self.o.event(Event::ToBag { token: t });
    }

    /// Takes the token at `index` of the bag out (it is then `Held`).
    #[inline]
    pub(crate) fn take_from_bag(&mut self, index: usize) -> Option<TokenId> {
        if index >= self.s.bag.len() {
            return None;
        }
        // Draws take the last token: a pop moves nothing.
        let t = if index + 1 == self.s.bag.len() {
            self.s.bag.pop()?
        } else {
            self.s.bag.remove(index)
        };
        self.s.set_evidence(t, EvLoc::Held);
        Some(t)
    }

    /// R4.1, docs/open-questions.md#q2: draws cards, shuffling the discard pile into a new
    /// deck when the deck runs out; draws what there is.
    pub(crate) fn draw_cards(&mut self, side: Side, n: u8) {
        let mut drawn = 0;
        // The common case in one go: the deck holds them all, so no
        // reshuffle can come in between (the same cards in the same order
        // as drawing one by one from the end).
        let deck = &mut self.s.decks[side];
        if deck.len() >= n as usize {
            let rest = deck.len() - n as usize;
            let hand = &mut self.s.hands[side];
            hand.extend(deck[rest..].iter().rev().copied());
            deck.truncate(rest);
            self.o.event(Event::CardsDrawn { side, count: n });
            return;
        }
        for _ in 0..n {
            match self.draw_card(side) {
                Some(c) => {
                    self.s.hands[side].push(c);
                    drawn += 1;
                }
                None => break,
            }
        }
        self.o.event(Event::CardsDrawn { side, count: drawn });
    }

    /// The top card of `side`'s deck (reshuffling the discard pile if needed).
    pub(crate) fn draw_card(&mut self, side: Side) -> Option<CardId> {
        if self.s.decks[side].is_empty() && !self.s.discards[side].is_empty() {
            let mut pile = std::mem::take(&mut self.s.discards[side]);
            self.s.shuffle(&mut pile);
            self.s.decks[side] = pile;
            self.o.event(Event::DeckReshuffled { side });
        }
        self.s.decks[side].pop()
    }

    /// With explicit chance: the discard pile becomes the deck, card
    /// `index` of the pile on top (chance's outcome), and that card is
    /// drawn. The cards below are shuffled with the generator.
    pub(crate) fn reshuffle_with_top(&mut self, side: Side, index: usize) -> Option<CardId> {
        let i = side;
        if index >= self.s.discards[i].len() {
            return None;
        }
        let mut pile = std::mem::take(&mut self.s.discards[i]);
        let top = pile.remove(index);
        self.s.shuffle(&mut pile);
        pile.push(top);
        self.s.decks[i].extend_from_slice(&pile);
        self.o.event(Event::DeckReshuffled { side });
        self.s.decks[i].pop()
    }

    /// Puts a card that is in no zone (being played) where `dest` says.
    pub(crate) fn put_card(&mut self, card: CardId, dest: Dest) {
        let owner = self.r.card(card).side;
        match dest {
            Dest::Discard => {
                self.s.discards[owner].push(card);
                self.o.event(Event::Discarded { side: owner, card });
            }
            Dest::Removed => {
                self.s.removed.push(card);
                self.o.event(Event::RemovedFromGame { card });
            }
        }
    }

    /// Moves a card from a hand to its owner's discard pile.
    pub(crate) fn discard_from_hand(&mut self, side: Side, index: usize) {
        let c = self.s.hands[side].remove(index);
        self.put_card(c, Dest::Discard);
    }

    /// Takes a card out of any hand or discard pile (it is then in no zone).
    pub(crate) fn lift_card(&mut self, card: CardId) -> bool {
        for side in Side::BOTH {
            if let Some(k) = self.s.hands[side].iter().position(|c| *c == card) {
                self.s.hands[side].remove(k);
                return true;
            }
            if let Some(k) = self.s.discards[side].iter().position(|c| *c == card) {
                self.s.discards[side].remove(k);
                return true;
            }
        }
        false
    }

    /// Runs a script that reads the game, from `actor`'s point of view.
    /// `label` names the card in an error (built only then: this runs at
    /// every play of a card whose script reads the game).
    pub(crate) fn run_dynamic(
        &mut self,
        unit: usize,
        ctx: &crate::game::host::CardContext,
        actor: Side,
        label: impl FnOnce() -> String,
    ) -> Result<ProgRef, PlayError> {
        let view = self.s.script_view(self.r, actor);
        match self.r.scripts.run(unit, ctx, Some(view)) {
            Ok((program, _)) => Ok(ProgRef::Dynamic(std::sync::Arc::new(program))),
            Err(f) => Err(PlayError::Script(Box::new(super::ScriptError {
                card: label(),
                script: self.r.scripts.display(unit).to_string(),
                line: f.line,
                col: f.col,
                message: f.message,
                script_text: self.r.scripts.text(unit).to_string(),
            }))),
        }
    }
}

impl State {
    /// What a script sees: the actor's point of view, owned.
    pub(crate) fn script_view(
        &self,
        r: &crate::game::rules::Rules,
        actor: Side,
    ) -> crate::game::script_view::ScriptView {
        crate::game::script_view::ScriptView {
            round: self.round,
            my_hand_types: self.hands[actor]
                .iter()
                .map(|c| r.card(*c).card_type)
                .collect(),
            opponent_hand_size: self.hands[actor.other()].len(),
            track_evidence: self.track.len(),
            initiative_on_track: self.initiative_token.is_some(),
            momentum_position: self.momentum_token.map(|p| p * actor.sign()),
            my_momentum: self.momentum_cards[actor],
            pictures_in_supply: self
                .pictures
                .iter()
                .enumerate()
                .filter(|(_, p)| **p == PicLoc::Supply)
                .map(|(i, _)| PictureId(i as u8))
                .collect(),
            turns_played: self.turns_played[actor],
        }
    }
}
