//! Instructions on the course of the program and of the round: branches
//! and jumps, an extra turn, the end of the card phase, a restriction for
//! the rest of the round, cancelling the answered play (R6) and where the
//! played card goes.

use super::{At, Effect, Pick};
use crate::game::engine::choice::*;
use crate::game::engine::event::{Event, Observer};
use crate::game::engine::{Ctx, PlayError};
use crate::game::model::*;
use crate::game::program::*;
use crate::game::rules::Rules;
use crate::game::state::*;

impl Pick for Branch {
    fn candidates(&self, _s: &State, _r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) {
        // A branch always waits for its decision (`one_of` has an option).
        out.extend((0..self.options.len()).map(|i| Choice::Branch(i as u8)));
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        _at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let Choice::Branch(n) = choice else {
            return Err(super::not_for(self, choice));
        };
        let Some((_, to)) = self.options.get(n as usize) else {
            return Err(PlayError::internal("no such branch"));
        };
        cx.jump(*to);
        Ok(())
    }

    fn ask(&self, _f: &RunFrame) -> Ask {
        Ask::Branch {
            prompt: self.prompt.clone(),
            labels: self.options.iter().map(|o| o.0.clone()).collect(),
        }
    }
}

impl Branch {
    /// The label of option `n` (the notation's name for it).
    pub(crate) fn label(&self, n: u8) -> Option<&str> {
        self.options.get(n as usize).map(|o| o.0.as_str())
    }
}

impl Effect for Jump {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, _at: &At) -> Result<(), PlayError> {
        cx.jump(self.to);
        Ok(())
    }
}

impl Effect for ExtraTurn {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError> {
        cx.next();
        cx.s.turn = at.actor;
        cx.o.event(Event::ExtraTurn { side: at.actor });
        Ok(())
    }
}

impl Effect for EndCardPhase {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, _at: &At) -> Result<(), PlayError> {
        cx.next();
        for side in Side::BOTH {
            while !cx.s.hands[side].is_empty() {
                cx.discard_from_hand(side, 0);
            }
        }
        cx.o.event(Event::CardPhaseEnded);
        Ok(())
    }
}

impl Effect for Restrict {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError> {
        let forbid = Forbid {
            side: self.who.resolve(at.actor),
            part: self.part,
            types: self.types,
        };
        cx.next();
        if !cx.s.forbidden.contains(&forbid) {
            cx.s.forbidden.push(forbid);
        }
        cx.o.event(Event::Forbidden { side: forbid.side });
        Ok(())
    }
}

impl Effect for CancelTrigger {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError> {
        let target = cx.s.trigger_index(at.play);
        cx.next();
        if let Some(t) = target {
            if let Some(Frame::Play(p)) = cx.s.stack.get_mut(t) {
                p.cancelled = Some(self.dest);
            }
        }
        Ok(())
    }
}

impl Effect for SetDestination {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError> {
        cx.next();
        if let Some(Frame::Play(p)) = at.play.and_then(|i| cx.s.stack.get_mut(i as usize)) {
            p.dest = Some(self.dest);
        }
        Ok(())
    }
}
