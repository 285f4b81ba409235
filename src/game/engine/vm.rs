//! The effect VM: carries out a card program (see `script::program`) one
//! instruction at a time, stopping at every choice as a decision. Each
//! instruction does "fully what it can" and skips what it cannot (R5.9).

use super::choice::*;
use super::event::{Event, Observer};
use super::{Ctx, PlayError, Progress};
use crate::game::model::*;
use crate::game::program::*;
use crate::game::rules::{Action, Rules, SpaceKind};
use crate::game::state::*;

/// A program's instructions, borrowed from the rules or shared with the state.
pub(crate) enum Code<'r> {
    Rules(&'r [Instr]),
    Shared(std::sync::Arc<Program>),
}

impl std::ops::Deref for Code<'_> {
    type Target = [Instr];
    fn deref(&self) -> &[Instr] {
        match self {
            Code::Rules(p) => p,
            Code::Shared(p) => p,
        }
    }
}

/// The instructions a running frame executes.
pub(crate) fn code<'r>(r: &'r Rules, prog: &ProgRef) -> Code<'r> {
    match prog {
        ProgRef::Card(c) => match &r.card(*c).action {
            Action::Static(p) => Code::Rules(p),
            Action::Dynamic { .. } => Code::Rules(&[]),
        },
        ProgRef::Space(side, i) => match r.momentum_cards[*side]
            .spaces
            .get(*i as usize)
            .and_then(|s| s.action.as_ref())
        {
            Some(Action::Static(p)) => Code::Rules(p),
            _ => Code::Rules(&[]),
        },
        ProgRef::Dynamic(p) => Code::Shared(p.clone()),
    }
}

impl<O: Observer> Ctx<'_, O> {
    fn run_frame(&mut self) -> &mut RunFrame {
        match self.s.stack.last_mut() {
            Some(Frame::Run(f)) => f,
            _ => unreachable!("top frame is a running program"),
        }
    }

    /// Goes on with the next instruction.
    fn next(&mut self) {
        let f = self.run_frame();
        f.pc += 1;
        f.done = 0;
        f.picked.clear();
    }

    /// `buf` (empty) receives the picks of a choosing instruction, the
    /// options of the decision that waits for them.
    pub(crate) fn step_run(&mut self, buf: &mut Vec<Choice>) -> Result<Progress, PlayError> {
        let Some(Frame::Run(f)) = self.s.stack.last() else {
            return Ok(Progress::Continue);
        };
        let r = self.r;
        let prog = code(r, &f.prog);
        let Some(instr) = prog.get(f.pc as usize) else {
            self.s.stack.pop();
            return Ok(Progress::Continue);
        };
        let (actor, done) = (f.actor, f.done);
        // A choosing instruction waits for a decision when it has something
        // to pick; otherwise it is skipped (R5.9: it does what it can). Its
        // picks are the same ones `run_options` lists.
        if let Some(offers) = self.s.picks(r, f, instr, buf) {
            let exhausted = matches!(instr, Instr::Move { count, .. } if done >= *count);
            if offers && !exhausted {
                // The options, as `run_options` lists them.
                if matches!(
                    instr,
                    Instr::Move { up_to: true, .. } | Instr::ChooseCard { optional: true, .. }
                ) {
                    buf.push(Choice::Skip);
                }
                return Ok(Progress::Ready(Actor::Player(actor)));
            }
            if let Instr::ChooseCard { skip_to, .. } = instr {
                let skip_to = *skip_to;
                let f = self.run_frame();
                f.pc = skip_to;
                f.done = 0;
                f.picked.clear();
            } else {
                self.next();
            }
            return Ok(Progress::Continue);
        }
        match instr {
            // Handled above.
            Instr::Move { .. }
            | Instr::Place { .. }
            | Instr::TrackToBag { .. }
            | Instr::PinFromTrack { .. }
            | Instr::BoardToBag { .. }
            | Instr::BoardToTrack { .. }
            | Instr::FlipOnBoard { .. }
            | Instr::UnpinPicture { .. }
            | Instr::ChooseCard { .. }
            | Instr::Branch { .. } => Ok(Progress::Decide),
            Instr::MoveAll { filter, steps } => {
                let (filter, steps) = (*filter, *steps);
                let tokens = self.s.track_tokens_admitted(r, &filter);
                self.next();
                // Gained tokens are pinned in track order: push the last first.
                for t in tokens.into_iter().rev() {
                    self.move_token(Moving::Evidence(t), steps, actor)?;
                    if self.s.outcome.is_some() {
                        break;
                    }
                }
                Ok(Progress::Continue)
            }
            Instr::PlaceAll {
                what,
                space,
                flip_up,
            } => {
                let (what, space, flip_up) = (*what, *space, *flip_up);
                self.next();
                if what.initiative {
                    self.place_token(Moving::Initiative, space, actor)?;
                }
                if what.momentum {
                    self.place_token(Moving::Momentum, space, actor)?;
                }
                if let Some(filter) = what.evidence {
                    let tokens = self.s.track_tokens_admitted(r, &filter);
                    for t in tokens.into_iter().rev() {
                        if flip_up {
                            if let Some((pos, false)) = self.s.on_track(t) {
                                self.s.evidence[t.index()] = EvLoc::Track { pos, face_up: true };
                                self.o.event(Event::Flipped { token: t });
                            }
                        }
                        self.place_token(Moving::Evidence(t), space, actor)?;
                    }
                }
                Ok(Progress::Continue)
            }
            Instr::DrawToTrack { .. } | Instr::DrawAndPin => {
                if self.s.bag.is_empty() {
                    self.next();
                    return Ok(Progress::Continue);
                }
                if self.s.explicit_chance {
                    return Ok(Progress::Decide);
                }
                let top = self.s.bag.len() - 1;
                self.draw_effect(top);
                Ok(Progress::Continue)
            }
            Instr::PinPicture { picture } => {
                let pic = match picture {
                    PictureRef::Named(p) => Some(*p),
                    PictureRef::ThisCard => f.card.and_then(|c| r.card(c).informant),
                };
                self.next();
                if let Some(p) = pic {
                    if self.s.pictures[p.index()] == PicLoc::Supply {
                        let face_up = actor == Side::Editor;
                        self.s.pictures[p.index()] = PicLoc::Pinned { face_up };
                        self.o.event(Event::PictureTaken {
                            side: actor,
                            picture: p,
                            face_up,
                        });
                        if face_up {
                            self.check_connection();
                        }
                    }
                }
                Ok(Progress::Continue)
            }
            Instr::DiscardRandom { who, count } => {
                let side = who.resolve(actor);
                let hand_len = self.s.hands[side].len();
                if done >= *count || hand_len == 0 {
                    self.next();
                    return Ok(Progress::Continue);
                }
                if self.s.explicit_chance {
                    return Ok(Progress::Decide);
                }
                let i = self.s.below(hand_len);
                self.run_frame().done += 1;
                self.discard_from_hand(side, i);
                Ok(Progress::Continue)
            }
            Instr::ExtraTurn => {
                self.next();
                self.s.turn = actor;
                self.o.event(Event::ExtraTurn { side: actor });
                Ok(Progress::Continue)
            }
            Instr::EndCardPhase => {
                self.next();
                for side in Side::BOTH {
                    while !self.s.hands[side].is_empty() {
                        self.discard_from_hand(side, 0);
                    }
                }
                self.o.event(Event::CardPhaseEnded);
                Ok(Progress::Continue)
            }
            Instr::PlayTopCard => {
                let i = actor;
                if self.s.explicit_chance
                    && self.s.decks[i].is_empty()
                    && !self.s.discards[i].is_empty()
                {
                    // The deck is reshuffled: which card comes out on top is
                    // chance's decision, not the generator's (for the solver).
                    return Ok(Progress::Decide);
                }
                self.next();
                if let Some(card) = self.draw_card(actor) {
                    self.play_drawn(actor, card);
                }
                Ok(Progress::Continue)
            }
            Instr::Forbid { who, part, types } => {
                let forbid = Forbid {
                    side: who.resolve(actor),
                    part: *part,
                    types: *types,
                };
                self.next();
                if !self.s.forbidden.contains(&forbid) {
                    self.s.forbidden.push(forbid);
                }
                self.o.event(Event::Forbidden { side: forbid.side });
                Ok(Progress::Continue)
            }
            Instr::CancelTrigger { dest } => {
                let dest = *dest;
                let target = self.s.trigger_index(f);
                self.next();
                if let Some(t) = target {
                    if let Some(Frame::Play(p)) = self.s.stack.get_mut(t) {
                        p.cancelled = Some(dest);
                    }
                }
                Ok(Progress::Continue)
            }
            Instr::RemoveChosen => {
                let chosen = f.chosen;
                self.next();
                if let Some(c) = chosen {
                    if self.lift_card(c) {
                        self.put_card(c, Dest::Removed);
                    }
                }
                Ok(Progress::Continue)
            }
            Instr::PerformChosen => {
                let chosen = f.chosen;
                self.next();
                if let Some(c) = chosen {
                    // docs/open-questions.md#q7: as if played, but no new reaction window;
                    // the chosen card stays where it is.
                    let prog = self.card_program(c, actor)?;
                    self.s
                        .stack
                        .push(Frame::Run(RunFrame::new(prog, actor, Some(c), None)));
                }
                Ok(Progress::Continue)
            }
            Instr::SetDestination(dest) => {
                let dest = *dest;
                let play = f.play;
                self.next();
                if let Some(Frame::Play(p)) = play.and_then(|i| self.s.stack.get_mut(i as usize)) {
                    p.dest = Some(dest);
                }
                Ok(Progress::Continue)
            }
            Instr::Jump(to) => {
                let to = *to;
                let f = self.run_frame();
                f.pc = to;
                f.done = 0;
                f.picked.clear();
                Ok(Progress::Continue)
            }
        }
    }

    /// Draws bag token `index` for a draw instruction and carries it out.
    /// Q3: the card drawn by an action is played at once.
    fn play_drawn(&mut self, actor: Side, card: CardId) {
        self.o.event(Event::DrewToPlay { side: actor, card });
        self.s.stack.push(Frame::Play(PlayFrame {
            card,
            player: actor,
            part: None,
            stage: PlayStage::ChoosePart,
            target: None,
            cancelled: None,
            reacting_to: None,
            dest: None,
        }));
    }

    fn draw_effect(&mut self, index: usize) {
        let Some(Frame::Run(f)) = self.s.stack.last() else {
            return;
        };
        let actor = f.actor;
        let instr = code(self.r, &f.prog).get(f.pc as usize).cloned();
        self.next();
        let Some(t) = self.take_from_bag(index) else {
            return;
        };
        match instr {
            Some(Instr::DrawToTrack { space, face_up }) => {
                self.arrive_on_track(t, space, face_up, actor)
            }
            _ => self.begin_pin(t, actor),
        }
    }

    /// A token comes onto the track (from the bag or the board) on space
    /// `space` of `side`'s half; the last space gains it at once (R5.8).
    fn arrive_on_track(&mut self, t: TokenId, space: u8, face_up: bool, side: Side) {
        let pos = side.sign() * (space as i8).min(self.track_len());
        self.put_on_track(t, pos, face_up);
        self.o.event(Event::EvidenceDrawn {
            token: t,
            pos,
            face_up,
        });
        if pos.abs() == self.track_len() {
            self.gain_evidence(t, side);
        }
    }

    pub(crate) fn choose_run(&mut self, choice: Choice) -> Result<(), PlayError> {
        let Some(Frame::Run(f)) = self.s.stack.last() else {
            return Err(PlayError::Internal("no program on top".into()));
        };
        let r = self.r;
        let prog = code(r, &f.prog);
        let Some(instr) = prog.get(f.pc as usize) else {
            return Err(PlayError::Internal(
                "program ended before a decision".into(),
            ));
        };
        let actor = f.actor;
        match (instr, choice) {
            (
                Instr::Move {
                    steps,
                    count,
                    up_to,
                    ..
                },
                Choice::Token(t),
            ) => {
                let target = self.s.resolve_token(t)?;
                let steps = match steps {
                    Amount::Fixed(n) => *n,
                    Amount::TriggerValue => self.s.trigger_value(r).unwrap_or(0),
                };
                let f = self.run_frame();
                f.done += 1;
                if let Moving::Evidence(tok) = target {
                    f.picked.push(tok);
                }
                if f.done >= *count {
                    self.next();
                }
                let _ = up_to;
                self.move_token(target, steps, actor)?;
            }
            (Instr::Move { up_to: true, .. }, Choice::Skip) => self.next(),
            (Instr::Place { space, .. }, Choice::Token(t)) => {
                let target = self.s.resolve_token(t)?;
                self.next();
                self.place_token(target, *space, actor)?;
            }
            (Instr::TrackToBag { .. }, Choice::Token(t)) => {
                let Moving::Evidence(tok) = self.s.resolve_token(t)? else {
                    return Err(PlayError::Internal("not evidence".into()));
                };
                self.next();
                self.return_to_bag(tok);
            }
            (Instr::PinFromTrack { .. }, Choice::Token(t)) => {
                let Moving::Evidence(tok) = self.s.resolve_token(t)? else {
                    return Err(PlayError::Internal("not evidence".into()));
                };
                self.next();
                self.take_off_track(tok);
                self.begin_pin(tok, actor);
            }
            (Instr::BoardToBag { .. }, Choice::Space(sp)) => {
                self.next();
                if let Some((tok, _)) = self.s.board_token(sp) {
                    self.return_to_bag(tok);
                }
            }
            (Instr::BoardToTrack { space, face_up, .. }, Choice::Space(sp)) => {
                self.next();
                if let Some((tok, _)) = self.s.board_token(sp) {
                    self.arrive_on_track(tok, *space, *face_up, actor);
                }
            }
            (Instr::FlipOnBoard { .. }, Choice::Space(sp)) => {
                self.next();
                if let Some((tok, false)) = self.s.board_token(sp) {
                    self.s.evidence[tok.index()] = EvLoc::Board {
                        space: sp,
                        face_up: true,
                    };
                    self.o.event(Event::Flipped { token: tok });
                    self.check_connection();
                }
            }
            (Instr::UnpinPicture { .. }, Choice::Picture(p)) => {
                self.next();
                self.s.pictures[p.index()] = PicLoc::Supply;
                self.o.event(Event::PictureReturned { picture: p });
            }
            (Instr::DiscardRandom { who, .. }, Choice::Chance(i)) => {
                let side = who.resolve(actor);
                self.run_frame().done += 1;
                if (i as usize) < self.s.hands[side].len() {
                    self.discard_from_hand(side, i as usize);
                }
            }
            (Instr::DrawToTrack { .. } | Instr::DrawAndPin, Choice::Chance(i)) => {
                self.draw_effect(i as usize);
            }
            (Instr::PlayTopCard, Choice::Chance(i)) => {
                self.next();
                if let Some(card) = self.reshuffle_with_top(actor, i as usize) {
                    self.play_drawn(actor, card);
                }
            }
            (Instr::ChooseCard { .. }, Choice::Card(c)) => {
                let f = self.run_frame();
                f.chosen = Some(c);
                f.pc += 1;
            }
            (Instr::ChooseCard { skip_to, .. }, Choice::Skip) => {
                let f = self.run_frame();
                f.chosen = None;
                f.pc = *skip_to;
            }
            (Instr::Branch { options, .. }, Choice::Branch(n)) => {
                let Some((_, to)) = options.get(n as usize) else {
                    return Err(PlayError::Internal("no such branch".into()));
                };
                let f = self.run_frame();
                f.pc = *to;
                f.done = 0;
                f.picked.clear();
            }
            (instr, choice) => {
                return Err(PlayError::Internal(format!(
                    "{choice:?} for instruction {instr:?}"
                )));
            }
        }
        Ok(())
    }
}

impl State {
    /// The stack index of the play a reaction's program answers.
    fn trigger_index(&self, f: &RunFrame) -> Option<usize> {
        let play = f.play? as usize;
        match self.stack.get(play) {
            Some(Frame::Play(p)) => p.reacting_to.map(|i| i as usize),
            _ => None,
        }
    }

    fn top_run(&self) -> Option<&RunFrame> {
        match self.stack.last() {
            Some(Frame::Run(f)) => Some(f),
            _ => None,
        }
    }

    /// R6.5: the value of the card whose play the running reaction answers.
    fn trigger_value(&self, r: &Rules) -> Option<u8> {
        let f = self.top_run()?;
        match self.stack.get(self.trigger_index(f)?) {
            Some(Frame::Play(p)) => Some(r.card(p.card).value),
            _ => None,
        }
    }

    /// The token the answered play was moving, if still on the track.
    fn trigger_target(&self) -> Option<Moving> {
        let f = self.top_run()?;
        match self.stack.get(self.trigger_index(f)?) {
            Some(Frame::Play(p)) => p.target,
            _ => None,
        }
    }

    /// The evidence tokens on the track a filter admits, in slot order.
    fn track_tokens_admitted(
        &self,
        r: &Rules,
        filter: &EvidenceFilter,
    ) -> smallvec::SmallVec<[TokenId; 16]> {
        self.track
            .iter()
            .copied()
            .filter(|t| self.evidence_admits(r, *t, filter))
            .collect()
    }

    pub(crate) fn evidence_admits(&self, r: &Rules, t: TokenId, filter: &EvidenceFilter) -> bool {
        let Some((_, face_up)) = self.on_track(t) else {
            return false;
        };
        filter.face.admits(face_up) && filter.colour.is_none_or(|c| r.token(t).colours.contains(c))
    }

    /// The track tokens a selector may pick now, excluding tokens already
    /// picked by the running instruction (docs/open-questions.md#q9).
    fn candidates(&self, r: &Rules, what: &TokenSelector, out: &mut Vec<Choice>) {
        if what.initiative && self.initiative_token.is_some() {
            out.push(Choice::Token(TokenRef::Initiative));
        }
        if what.momentum && self.momentum_token.is_some() {
            out.push(Choice::Token(TokenRef::Momentum));
        }
        let picked: &[TokenId] = self.top_run().map(|f| f.picked.as_slice()).unwrap_or(&[]);
        if let Some(filter) = &what.evidence {
            for (slot, t) in self.track.iter().enumerate() {
                if !picked.contains(t) && self.evidence_admits(r, *t, filter) {
                    out.push(Choice::Token(TokenRef::Evidence(slot as u8)));
                }
            }
        }
        if what.trigger_token {
            match self.trigger_target() {
                Some(Moving::Evidence(t)) => {
                    if let Some(slot) = self.slot_of(t) {
                        out.push(Choice::Token(TokenRef::Evidence(slot)));
                    }
                }
                Some(Moving::Initiative) if self.initiative_token.is_some() => {
                    out.push(Choice::Token(TokenRef::Initiative))
                }
                Some(Moving::Momentum) if self.momentum_token.is_some() => {
                    out.push(Choice::Token(TokenRef::Momentum))
                }
                _ => {}
            }
        }
    }

    /// Board spaces holding a token the filter admits, in space order.
    pub(crate) fn board_candidates(
        &self,
        r: &Rules,
        filter: &EvidenceFilter,
        out: &mut Vec<Choice>,
    ) {
        // One pass over the tokens (a space holds at most one), then the
        // spaces in order.
        let mut spaces = SpaceSet::EMPTY;
        for (i, loc) in self.evidence.iter().enumerate() {
            let EvLoc::Board { space, face_up } = *loc else {
                continue;
            };
            if matches!(r.board.spaces[space.index()].kind, SpaceKind::Evidence(_))
                && filter.face.admits(face_up)
                && filter
                    .colour
                    .is_none_or(|c| r.token(TokenId(i as u8)).colours.contains(c))
            {
                spaces.insert(space);
            }
        }
        out.extend(spaces.iter().map(Choice::Space));
    }

    fn pinned_pictures(&self, face_up: Option<bool>) -> impl Iterator<Item = PictureId> + '_ {
        self.pictures
            .iter()
            .enumerate()
            .filter_map(move |(i, p)| match p {
                PicLoc::Pinned { face_up: f } if face_up.is_none_or(|want| want == *f) => {
                    Some(PictureId(i as u8))
                }
                _ => None,
            })
    }

    /// The cards a `ChooseCard` may pick.
    fn card_candidates(&self, r: &Rules, f: &RunFrame, out: &mut Vec<Choice>) {
        let prog = code(r, &f.prog);
        let Some(Instr::ChooseCard {
            zone, who, filter, ..
        }) = prog.get(f.pc as usize)
        else {
            return;
        };
        let side = who.resolve(f.actor);
        // Removed cards are one pile for both sides: only `side`'s count.
        let (pool, only_side): (&[CardId], bool) = match zone {
            Zone::Hand => (&self.hands[side], false),
            Zone::Discard => (&self.discards[side], false),
            Zone::Removed => (&self.removed, true),
        };
        for &c in pool {
            let card = r.card(c);
            if only_side && card.side != side {
                continue;
            }
            if !filter.types.admits(card.card_type) {
                continue;
            }
            if filter
                .reaction
                .is_some_and(|want| want != card.is_reaction())
            {
                continue;
            }
            // The chosen card's action is carried out within the turn in
            // progress (The system works, Q5, Q7).
            if filter.usable && !self.action_usable(r, f.actor, c, PlayedAs::WithinTurn) {
                continue;
            }
            out.push(Choice::Card(c));
        }
    }

    /// What a choosing instruction offers to pick (without `Skip`), in
    /// `out`; whether there is anything. `None` for an instruction that
    /// runs by itself. The one list of an instruction's candidates, used
    /// both to skip it when empty and to list the decision's options.
    fn picks(&self, r: &Rules, f: &RunFrame, instr: &Instr, out: &mut Vec<Choice>) -> Option<bool> {
        match instr {
            Instr::Move { what, .. } | Instr::Place { what, .. } => self.candidates(r, what, out),
            Instr::TrackToBag { filter } | Instr::PinFromTrack { filter } => self.candidates(
                r,
                &TokenSelector {
                    evidence: Some(*filter),
                    ..Default::default()
                },
                out,
            ),
            Instr::BoardToBag { filter }
            | Instr::BoardToTrack { filter, .. }
            | Instr::FlipOnBoard { filter } => self.board_candidates(r, filter, out),
            Instr::UnpinPicture { face_up } => {
                out.extend(self.pinned_pictures(*face_up).map(Choice::Picture))
            }
            Instr::ChooseCard { .. } => self.card_candidates(r, f, out),
            Instr::Branch { options, .. } => {
                // A branch always waits for its decision.
                out.extend((0..options.len()).map(|i| Choice::Branch(i as u8)));
                return Some(true);
            }
            _ => return None,
        }
        Some(!out.is_empty())
    }

    pub(crate) fn run_options(&self, r: &Rules, out: &mut Vec<Choice>) -> Actor {
        let Some(f) = self.top_run() else {
            return Actor::Chance;
        };
        let actor = Actor::Player(f.actor);
        let prog = code(r, &f.prog);
        let Some(instr) = prog.get(f.pc as usize) else {
            return actor;
        };
        match instr {
            Instr::DiscardRandom { who, .. } => {
                let n = self.hands[who.resolve(f.actor)].len();
                out.extend((0..n).map(|i| Choice::Chance(i as u8)));
                return Actor::Chance;
            }
            Instr::DrawToTrack { .. } | Instr::DrawAndPin => {
                return self.chance_draw_options(r, out);
            }
            Instr::PlayTopCard => {
                // Only asked when the deck is reshuffled (see `step`): one
                // outcome per card of the discard pile, each as likely.
                let n = self.discards[f.actor].len();
                out.extend((0..n).map(|i| Choice::Chance(i as u8)));
                return Actor::Chance;
            }
            Instr::Move { up_to: true, .. } | Instr::ChooseCard { optional: true, .. } => {
                self.picks(r, f, instr, out);
                out.push(Choice::Skip);
            }
            _ => {
                self.picks(r, f, instr, out);
            }
        }
        actor
    }

    pub(crate) fn run_kind(&self, r: &Rules, f: &RunFrame) -> DecisionKind {
        let instr = code(r, &f.prog).get(f.pc as usize).cloned();
        let ask = match instr {
            Some(Instr::Move {
                steps,
                count,
                up_to,
                what,
            }) => Ask::Move {
                what,
                steps,
                count,
                up_to,
                done: f.done,
            },
            Some(Instr::Place { what, space }) => Ask::Place { what, space },
            Some(Instr::TrackToBag { filter }) => Ask::TrackToBag { filter },
            Some(Instr::PinFromTrack { filter }) => Ask::PinFromTrack { filter },
            Some(Instr::BoardToBag { filter }) => Ask::BoardToBag { filter },
            Some(Instr::BoardToTrack { filter, space, .. }) => Ask::BoardToTrack { filter, space },
            Some(Instr::FlipOnBoard { .. }) => Ask::FlipOnBoard,
            Some(Instr::UnpinPicture { .. }) => Ask::UnpinPicture,
            Some(Instr::ChooseCard { prompt, .. }) => Ask::ChooseCard { prompt },
            Some(Instr::Branch { prompt, options }) => Ask::Branch {
                prompt,
                labels: options.into_iter().map(|o| o.0).collect(),
            },
            Some(Instr::DiscardRandom { .. }) => {
                return DecisionKind::Chance {
                    what: "a random card discarded".to_string(),
                    weights: vec![],
                }
            }
            Some(Instr::DrawToTrack { .. } | Instr::DrawAndPin) => {
                return self.chance_draw_kind(r, "evidence drawn from the bag")
            }
            Some(Instr::PlayTopCard) => {
                let n = self.discards[f.actor].len();
                return DecisionKind::Chance {
                    what: "the card on top of the reshuffled deck".to_string(),
                    weights: vec![1; n],
                };
            }
            _ => Ask::Continue,
        };
        DecisionKind::Action { card: f.card, ask }
    }
}
