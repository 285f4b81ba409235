//! Instructions that draw evidence from the bag: onto the track, or to be
//! pinned (R7.6). With an empty bag nothing happens (docs/open-questions.md#q2).
//! Which token comes out is chance's: the state's generator, or a decision
//! of its own when the state asks for explicit chance (the solver).

use super::{At, Instruction};
use crate::game::engine::choice::*;
use crate::game::engine::event::Observer;
use crate::game::engine::{Ctx, PlayError, Progress};
use crate::game::program::*;
use crate::game::rules::Rules;
use crate::game::state::*;

/// A draw from the bag, and what becomes of the drawn token.
trait Draw: std::fmt::Debug {
    fn place<O: Observer>(&self, cx: &mut Ctx<'_, O>, t: crate::game::model::TokenId, at: &At);
}

impl Draw for DrawToTrack {
    fn place<O: Observer>(&self, cx: &mut Ctx<'_, O>, t: crate::game::model::TokenId, at: &At) {
        cx.arrive_on_track(t, self.space, self.face_up, at.actor);
    }
}

impl Draw for DrawAndPin {
    fn place<O: Observer>(&self, cx: &mut Ctx<'_, O>, t: crate::game::model::TokenId, at: &At) {
        cx.begin_pin(t, at.actor);
    }
}

/// Draws bag token `index` and places it.
fn draw<D: Draw, O: Observer>(d: &D, cx: &mut Ctx<'_, O>, at: &At, index: usize) {
    cx.next();
    if let Some(t) = cx.take_from_bag(index) {
        d.place(cx, t, at);
    }
}

macro_rules! drawing {
    ($($t:ty),*) => {$(
        impl Instruction for $t {
            fn run<O: Observer>(
                &self,
                cx: &mut Ctx<'_, O>,
                at: &At,
                _buf: &mut Vec<Choice>,
            ) -> Result<Progress, PlayError> {
                if cx.s.bag.is_empty() {
                    cx.next();
                    return Ok(Progress::Continue);
                }
                if cx.s.explicit_chance {
                    return Ok(Progress::Decide);
                }
                let top = cx.s.bag.len() - 1;
                draw(self, cx, at, top);
                Ok(Progress::Continue)
            }

            fn options(&self, s: &State, r: &Rules, _f: &RunFrame, out: &mut Vec<Choice>) -> Actor {
                s.chance_draw_options(r, out)
            }

            fn take<O: Observer>(
                &self,
                cx: &mut Ctx<'_, O>,
                at: &At,
                choice: Choice,
            ) -> Result<(), PlayError> {
                let Choice::Chance(i) = choice else {
                    return Err(super::not_for(self, choice));
                };
                draw(self, cx, at, i as usize);
                Ok(())
            }

            fn kind(&self, s: &State, r: &Rules, _f: &RunFrame) -> DecisionKind {
                s.chance_draw_kind(r)
            }
        }
    )*};
}

drawing!(DrawToTrack, DrawAndPin);
