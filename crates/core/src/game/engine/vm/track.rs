//! Instructions on the research track's tokens: move some, move all, place
//! one or all, return one to the bag, pin one (R5.13, R7.6).

use super::{At, Effect, Pick};
use crate::game::engine::by_place::{ByPlace, Flow, Picker};
use crate::game::engine::choice::*;
use crate::game::engine::event::{Event, Observer};
use crate::game::engine::play::nth_bit;
use crate::game::engine::{Ctx, PlayError};
use crate::game::model::*;
use crate::game::program::*;
use crate::game::rules::Rules;
use crate::game::state::*;

impl Pick for MoveTokens {
    fn candidates(&self, s: &State, r: &Rules, f: &RunFrame, out: &mut Vec<Choice>) {
        s.track_picks(r, &self.what, &f.picked).write(out);
    }

    /// The token picked by place among `TrackPicks`, counted from the
    /// sets with no list of options, and moved with no `Choice` read back
    /// (`resolve_token`): as value plays are taken by place
    /// (`ValueTargets`). The game is the same as `offer` then `apply`
    /// with the option at that place (issue 38).
    #[inline(always)]
    fn by_place<O: Observer, P: Picker>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        _buf: &mut Vec<Choice>,
        by: &mut ByPlace<'_, P>,
    ) -> Result<Flow, PlayError> {
        let Some(f) = cx.s.top_run() else {
            return Ok(Flow::Go);
        };
        // All picked, or nothing to pick: passed over (`offer`).
        let picks = if self.finished(at) {
            TrackPicks::NONE
        } else {
            cx.s.track_picks(cx.r, &self.what, &f.picked)
        };
        let n = picks.len();
        if n == 0 {
            cx.next();
            return Ok(Flow::Go);
        }
        // `Skip` comes last, after the candidates.
        let Some(k) = by.take(Actor::Player(at.actor), n + usize::from(self.up_to)) else {
            return Ok(Flow::Stop);
        };
        if k == n {
            cx.next();
            return Ok(Flow::Go);
        }
        let target = picks.nth(&cx.s.track, k);
        self.move_picked(cx, at, target)
    }

    fn may_skip(&self) -> bool {
        self.up_to
    }

    /// `count` distinct tokens at most (docs/open-questions.md#q9).
    fn finished(&self, at: &At) -> bool {
        at.done >= self.count
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        match choice {
            Choice::Token(t) => {
                let target = cx.s.resolve_token(t)?;
                self.move_picked(cx, at, target)?;
                Ok(())
            }
            Choice::Skip if self.up_to => {
                cx.next();
                Ok(())
            }
            _ => Err(super::not_for(self, choice)),
        }
    }

    fn ask(&self, f: &RunFrame) -> Ask {
        Ask::Move {
            what: self.what,
            steps: self.steps,
            count: self.count,
            up_to: self.up_to,
            done: f.done,
        }
    }
}

impl MoveTokens {
    /// Moves the token picked (`target`), counted as one of `count`.
    #[inline(always)]
    fn move_picked<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        target: Moving,
    ) -> Result<Flow, PlayError> {
        let steps = match self.steps {
            Amount::Fixed(n) => n,
            Amount::TriggerValue => cx.s.trigger_value(cx.r).unwrap_or(0),
        };
        let f = cx.run_frame();
        f.done += 1;
        if f.done >= self.count {
            // The last pick: the program goes on (`Ctx::next`), on the
            // frame already at hand rather than looked up again, and the
            // token is not recorded as picked only to be cleared.
            f.pc += 1;
            f.done = 0;
            f.picked.clear();
        } else if let Moving::Evidence(tok) = target {
            f.picked.push(tok);
        }
        cx.move_token(target, steps, at.actor)?;
        Ok(Flow::Go)
    }
}

impl Effect for MoveAll {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError> {
        let tokens = cx.s.track_tokens_admitted(cx.r, &self.filter);
        cx.next();
        // Gained tokens are pinned in track order: push the last first.
        for t in tokens.into_iter().rev() {
            cx.move_token(Moving::Evidence(t), self.steps, at.actor)?;
            if cx.s.outcome.is_some() {
                break;
            }
        }
        Ok(())
    }
}

impl Pick for Place {
    fn candidates(&self, s: &State, r: &Rules, f: &RunFrame, out: &mut Vec<Choice>) {
        s.track_picks(r, &self.what, &f.picked).write(out);
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let Choice::Token(t) = choice else {
            return Err(super::not_for(self, choice));
        };
        let target = cx.s.resolve_token(t)?;
        cx.next();
        cx.place_token(target, self.space, at.actor)
    }

    fn ask(&self, _f: &RunFrame) -> Ask {
        Ask::Place {
            what: self.what,
            space: self.space,
        }
    }
}

impl Effect for PlaceAll {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError> {
        let actor = at.actor;
        cx.next();
        if self.what.initiative {
            cx.place_token(Moving::Initiative, self.space, actor)?;
        }
        if self.what.momentum {
            cx.place_token(Moving::Momentum, self.space, actor)?;
        }
        if let Some(filter) = self.what.evidence {
            let tokens = cx.s.track_tokens_admitted(cx.r, &filter);
            for t in tokens.into_iter().rev() {
                if self.flip_up {
                    if let Some((pos, false)) = cx.s.on_track(t) {
                        cx.s.set_evidence(t, EvLoc::on_track(pos, true));
                        cx.o.event(Event::Flipped { token: t });
                    }
                }
                cx.place_token(Moving::Evidence(t), self.space, actor)?;
            }
        }
        Ok(())
    }
}

/// Only the evidence tokens a filter admits.
fn evidence_only(filter: EvidenceFilter) -> TokenSelector {
    TokenSelector {
        evidence: Some(filter),
        ..Default::default()
    }
}

/// The evidence token a track instruction picked.
fn picked_evidence(s: &State, t: TokenRef) -> Result<TokenId, PlayError> {
    match s.resolve_token(t)? {
        Moving::Evidence(tok) => Ok(tok),
        _ => Err(PlayError::internal("not evidence")),
    }
}

impl Pick for TrackToBag {
    fn candidates(&self, s: &State, r: &Rules, f: &RunFrame, out: &mut Vec<Choice>) {
        s.track_picks(r, &evidence_only(self.filter), &f.picked)
            .write(out);
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        _at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let Choice::Token(t) = choice else {
            return Err(super::not_for(self, choice));
        };
        let tok = picked_evidence(cx.s, t)?;
        cx.next();
        cx.return_to_bag(tok);
        Ok(())
    }

    fn ask(&self, _f: &RunFrame) -> Ask {
        Ask::TrackToBag {
            filter: self.filter,
        }
    }
}

impl Pick for PinFromTrack {
    fn candidates(&self, s: &State, r: &Rules, f: &RunFrame, out: &mut Vec<Choice>) {
        s.track_picks(r, &evidence_only(self.filter), &f.picked)
            .write(out);
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let Choice::Token(t) = choice else {
            return Err(super::not_for(self, choice));
        };
        let tok = picked_evidence(cx.s, t)?;
        cx.next();
        cx.take_off_track(tok);
        cx.begin_pin(tok, at.actor);
        Ok(())
    }

    fn ask(&self, _f: &RunFrame) -> Ask {
        Ask::PinFromTrack {
            filter: self.filter,
        }
    }
}

impl State {
    /// R6.5: the value of the card whose play the running reaction answers.
    fn trigger_value(&self, r: &Rules) -> Option<u8> {
        self.trigger_play().map(|p| r.card(p.card).value)
    }

    /// The token the answered play was moving, if still on the track.
    fn trigger_target(&self) -> Option<Moving> {
        self.trigger_play()?.target
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
        filter.face.admits(face_up) && filter.colour.is_none_or(|c| r.token_colours(t).contains(c))
    }

    /// The track slots of the evidence a filter admits, as bits, and how
    /// many. Kept out of line, with the filter made two masks first: its
    /// loop then holds its values in registers, at about a third of the
    /// instructions it took inlined where the track is picked from (with
    /// a branch on the face and values spilled to the stack).
    #[inline(never)]
    fn admitted_slots(&self, r: &Rules, filter: &EvidenceFilter) -> (u64, u32) {
        // Bit 0: a face-down token is admitted; bit 1: a face-up one.
        let faces: u8 = match filter.face {
            Face::Any => 0b11,
            Face::Up => 0b10,
            Face::Down => 0b01,
        };
        // A token is admitted if it shares a colour with `colours`, or
        // whatever its colours when no colour is asked for (`any`).
        let (colours, any) = match filter.colour {
            None => (0, 1),
            Some(c) => (Colours::single(c).0, 0),
        };
        let evidence: &[EvLoc] = &self.evidence;
        let (mut slots, mut count) = (0u64, 0u32);
        for (slot, t) in self.track.iter().enumerate() {
            let face = match evidence[t.index()] {
                EvLoc::Track { face_up, .. } => 1u8 << u8::from(face_up),
                _ => 0,
            };
            let kept = (face & faces != 0) & ((r.token_colours(*t).0 & colours) | any != 0);
            // The loader allows at most `rules::MAX_EVIDENCE` tokens, so
            // every slot has its bit.
            slots |= u64::from(kept) << slot;
            count += u32::from(kept);
        }
        (slots, count)
    }

    /// The track tokens a selector may pick now, excluding tokens already
    /// picked by the running instruction (`picked`,
    /// docs/open-questions.md#q9), as sets. Each slot's bit is set with no
    /// branch on whether it is kept, as in `value_target_set`.
    #[inline]
    fn track_picks(&self, r: &Rules, what: &TokenSelector, picked: &[TokenId]) -> TrackPicks {
        let (mut slots, mut evidence_count) = (0u64, 0u32);
        if let Some(filter) = &what.evidence {
            (slots, evidence_count) = self.admitted_slots(r, filter);
            let track: &[TokenId] = &self.track;
            for t in picked {
                if let Some(slot) = track.iter().position(|x| x == t) {
                    evidence_count -= (slots >> slot) as u32 & 1;
                    slots &= !(1 << slot);
                }
            }
        }
        let trigger = if what.trigger_token {
            match self.trigger_target() {
                Some(Moving::Evidence(t)) => self.slot_of(t).map(TokenRef::Evidence),
                Some(Moving::Initiative) if self.initiative_token.is_some() => {
                    Some(TokenRef::Initiative)
                }
                Some(Moving::Momentum) if self.momentum_token.is_some() => Some(TokenRef::Momentum),
                _ => None,
            }
        } else {
            None
        };
        TrackPicks {
            initiative: what.initiative && self.initiative_token.is_some(),
            momentum: what.momentum && self.momentum_token.is_some(),
            slots,
            evidence_count,
            trigger,
        }
    }
}

/// What a track instruction may pick, in the order of its options: the
/// initiative token, the momentum token, the evidence in each slot of
/// `slots` (lowest first), then the token the answered play moved (which
/// may be one of those again: it is offered twice then). One definition
/// serves the list of options (`write`) and a pick by place with no list
/// (`len` and `nth`), as `ValueTargets` does for value plays.
#[derive(Clone, Copy, Debug)]
pub(super) struct TrackPicks {
    initiative: bool,
    momentum: bool,
    /// Bit `i` for the evidence in track slot `i`.
    slots: u64,
    /// The bits set in `slots`, counted as they were set: the processor
    /// is only assumed to have SSE2, so `count_ones` is a routine of a
    /// dozen instructions, not one.
    evidence_count: u32,
    trigger: Option<TokenRef>,
}

impl TrackPicks {
    /// Nothing to pick.
    const NONE: TrackPicks = TrackPicks {
        initiative: false,
        momentum: false,
        slots: 0,
        evidence_count: 0,
        trigger: None,
    };

    /// How many options there are.
    #[inline]
    fn len(&self) -> usize {
        usize::from(self.initiative)
            + usize::from(self.momentum)
            + self.evidence_count as usize
            + usize::from(self.trigger.is_some())
    }

    /// Option `k` (below `len`) as the token it moves (evidence read from
    /// `track`, the track its slots were found on).
    #[inline]
    fn nth(&self, track: &[TokenId], k: usize) -> Moving {
        let as_moving = |t: TokenRef| match t {
            TokenRef::Initiative => Moving::Initiative,
            TokenRef::Momentum => Moving::Momentum,
            TokenRef::Evidence(slot) => Moving::Evidence(track[slot as usize]),
        };
        let (initiative, momentum) = (usize::from(self.initiative), usize::from(self.momentum));
        if k < initiative {
            return Moving::Initiative;
        }
        if k < initiative + momentum {
            return Moving::Momentum;
        }
        let k = k - initiative - momentum;
        if k < self.evidence_count as usize {
            return Moving::Evidence(track[nth_bit(self.slots, k) as usize]);
        }
        match self.trigger {
            Some(t) => as_moving(t),
            None => unreachable!("option {k} beyond the track's picks"),
        }
    }

    /// Appends the options in their order.
    #[inline]
    fn write(&self, out: &mut Vec<Choice>) {
        crate::game::engine::play::push_track_tokens(
            self.initiative,
            self.momentum,
            self.slots,
            out,
        );
        if let Some(t) = self.trigger {
            out.push(Choice::Token(t));
        }
    }
}
