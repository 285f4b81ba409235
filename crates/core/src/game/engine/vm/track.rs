//! Instructions on the research track's tokens: move some, move all, place
//! one or all, return one to the bag, pin one (R5.13, R7.6).

use super::{At, Effect, Pick};
use crate::game::engine::choice::*;
use crate::game::engine::event::{Event, Observer};
use crate::game::engine::{Ctx, PlayError};
use crate::game::model::*;
use crate::game::program::*;
use crate::game::rules::Rules;
use crate::game::state::*;

impl Pick for MoveTokens {
    fn candidates(&self, s: &State, r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) {
        s.track_candidates(r, &self.what, out);
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
                let steps = match self.steps {
                    Amount::Fixed(n) => n,
                    Amount::TriggerValue => cx.s.trigger_value(cx.r).unwrap_or(0),
                };
                let f = cx.run_frame();
                f.done += 1;
                if let Moving::Evidence(tok) = target {
                    f.picked.push(tok);
                }
                if f.done >= self.count {
                    cx.next();
                }
                cx.move_token(target, steps, at.actor)?;
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
    fn candidates(&self, s: &State, r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) {
        s.track_candidates(r, &self.what, out);
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
                        cx.s.set_evidence(t, EvLoc::Track { pos, face_up: true });
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
    fn candidates(&self, s: &State, r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) {
        s.track_candidates(r, &evidence_only(self.filter), out);
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
    fn candidates(&self, s: &State, r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) {
        s.track_candidates(r, &evidence_only(self.filter), out);
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

    /// The track tokens a selector may pick now, excluding tokens already
    /// picked by the running instruction (docs/open-questions.md#q9).
    fn track_candidates(&self, r: &Rules, what: &TokenSelector, out: &mut Vec<Choice>) {
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
}
