//! The effect VM: carries out a card program (see `game::program`) one
//! instruction at a time, stopping at every choice as a decision. Each
//! instruction does "fully what it can" and skips what it cannot (R5.9).
//!
//! Every instruction type has one home, an impl in the file of its family,
//! holding all it means: how it runs, the options it waits for, how a
//! decision is applied and what it asks ([`Instruction`]). Two kinds share
//! one way of running: those that wait for their actor to pick something
//! implement [`Pick`] (their candidates, application and question), and
//! those that run by themselves implement [`Effect`] (what they do).
//! This file only routes: [`with_instruction!`] is the one list of the
//! instruction types.
//!
//! - `track`: tokens on the research track (move, place, to the bag, pin);
//! - `bag`: evidence drawn from the bag;
//! - `pinboard`: tokens and pictures on the evidence board;
//! - `cards`: cards chosen, removed, performed, discarded, drawn and played;
//! - `course`: the program's and the round's course (branches, jumps, extra
//!   turns, restrictions, cancelling, where the played card goes).

mod bag;
mod cards;
mod course;
mod pinboard;
mod track;

use super::by_place::{ByPlace, Flow, Picker};
use super::choice::*;
use super::event::Observer;
use super::{Ctx, PlayError, Progress};
use crate::game::model::*;
use crate::game::program::*;
use crate::game::rules::{Action, Rules};
use crate::game::state::*;
use std::fmt;

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

/// The instructions a running frame executes. Inlined: a call for these
/// few tests, made before every instruction run, cost about as much as
/// the tests (issue 38).
#[inline(always)]
pub(crate) fn code<'r>(r: &'r Rules, f: &RunFrame) -> Code<'r> {
    match (f.source, &f.shared) {
        (ProgSource::Card(c), _) => match &r.card(c).action {
            Action::Static(p) => Code::Rules(p),
            Action::Dynamic { .. } => Code::Rules(&[]),
        },
        (ProgSource::Space(side, i), _) => match r.momentum_cards[side]
            .spaces
            .get(i as usize)
            .and_then(|s| s.action.as_ref())
        {
            Some(Action::Static(p)) => Code::Rules(p),
            _ => Code::Rules(&[]),
        },
        (ProgSource::Dynamic, Some(p)) => Code::Shared(p.clone()),
        (ProgSource::Dynamic, None) => unreachable!("`RunFrame::new` keeps a dynamic program"),
    }
}

/// Where the running program stands: the top frame's plain values, copied
/// so that an instruction can read them while it changes the state.
#[derive(Clone, Copy, Debug)]
pub(super) struct At {
    pub pc: u16,
    pub actor: Side,
    /// Progress inside the instruction (tokens moved, cards discarded…).
    pub done: u8,
    /// The card whose action this is.
    pub card: Option<CardId>,
    /// Stack index of the play this program belongs to.
    pub play: Option<u8>,
    /// The card picked by the last `ChooseCard`.
    pub chosen: Option<CardId>,
}

impl At {
    fn of(f: &RunFrame) -> At {
        At {
            pc: f.pc,
            actor: f.actor,
            done: f.done,
            card: f.card,
            play: f.play,
            chosen: f.chosen,
        }
    }
}

/// Everything one instruction means to the VM.
pub(super) trait Instruction: fmt::Debug {
    /// Carries the instruction out as far as it goes by itself: it either
    /// moves the program on (`Continue`) or waits for a decision (`Decide`,
    /// or `Ready` with the options already listed in `buf`, which is empty).
    fn run<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        buf: &mut Vec<Choice>,
    ) -> Result<Progress, PlayError>;

    /// `run` by place (`State::play_by_place`): a decision it stops at is
    /// taken at once, by the picker (`buf`, empty, holds its options).
    /// A picking instruction takes the pick where it stands (`picking!`);
    /// the others go through the generic door.
    fn run_by_place<O: Observer, P: Picker>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        buf: &mut Vec<Choice>,
        by: &mut ByPlace<'_, P>,
    ) -> Result<Flow, PlayError> {
        let progress = self.run(cx, at, buf)?;
        cx.decide_by_place(progress, by, buf)
    }

    /// The options of the decision the instruction waits for, and who takes
    /// it. An instruction that never waits lists nothing.
    fn options(&self, _s: &State, _r: &Rules, f: &RunFrame, _out: &mut Vec<Choice>) -> Actor {
        Actor::Player(f.actor)
    }

    /// Applies a decision the instruction waits for.
    fn take<O: Observer>(
        &self,
        _cx: &mut Ctx<'_, O>,
        _at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        Err(not_for(self, choice))
    }

    /// What the decision is about.
    fn kind(&self, _s: &State, _r: &Rules, f: &RunFrame) -> DecisionKind {
        DecisionKind::Action {
            card: f.card,
            ask: Ask::Continue,
        }
    }
}

/// An instruction that waits for its actor to pick one of its candidates,
/// and is skipped when there is none (R5.9).
pub(super) trait Pick: fmt::Debug {
    /// What may be picked now, in order, without `Skip`: the one list used
    /// both to skip the instruction when it is empty and as the options.
    fn candidates(&self, s: &State, r: &Rules, f: &RunFrame, out: &mut Vec<Choice>);

    /// The actor may pick nothing ("up to", "you may"): `Skip` is offered too.
    fn may_skip(&self) -> bool {
        false
    }

    /// The instruction has picked all it may, candidates or not.
    fn finished(&self, _at: &At) -> bool {
        false
    }

    /// There is nothing (more) to pick: where the program goes on.
    fn pass_over<O: Observer>(&self, cx: &mut Ctx<'_, O>) {
        cx.next();
    }

    /// The instruction's turn, as `run` and `run_by_place` both begin it:
    /// `true` with its options in `buf` (and `Skip` where allowed) when
    /// there is a pick to make; `false` when there is none (no run on
    /// top, or no candidate, or all picked: then it is passed over).
    #[inline(always)]
    fn offer<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At, buf: &mut Vec<Choice>) -> bool {
        let Some(f) = cx.s.top_run() else {
            return false;
        };
        self.candidates(cx.s, cx.r, f, buf);
        if !buf.is_empty() && !self.finished(at) {
            if self.may_skip() {
                buf.push(Choice::Skip);
            }
            return true;
        }
        self.pass_over(cx);
        false
    }

    /// The instruction's turn by place (`run_by_place`): the pick made
    /// from its options listed (`offer`) and the one at the picked place
    /// applied. An instruction whose options are counted from sets takes
    /// it with no list instead (`MoveTokens`).
    #[inline(always)]
    fn by_place<O: Observer, P: Picker>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        buf: &mut Vec<Choice>,
        by: &mut ByPlace<'_, P>,
    ) -> Result<Flow, PlayError> {
        if self.offer(cx, at, buf) {
            let Some(k) = by.take(Actor::Player(at.actor), buf.len()) else {
                return Ok(Flow::Stop);
            };
            self.apply(cx, at, buf[k])?;
        }
        Ok(Flow::Go)
    }

    /// Carries out the actor's pick (or `Skip`).
    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        choice: Choice,
    ) -> Result<(), PlayError>;

    /// What the instruction asks, as data (`game::wording` words it).
    fn ask(&self, f: &RunFrame) -> Ask;
}

/// An instruction that runs by itself, start to end, and never waits:
/// its whole meaning is what it does.
pub(super) trait Effect: fmt::Debug {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError>;
}

/// Every effect runs the same way, and waits for nothing.
macro_rules! effects {
    ($($t:ty),* $(,)?) => {$(
        impl Instruction for $t {
            fn run<O: Observer>(
                &self,
                cx: &mut Ctx<'_, O>,
                at: &At,
                _buf: &mut Vec<Choice>,
            ) -> Result<Progress, PlayError> {
                self.carry_out(cx, at)?;
                Ok(Progress::Continue)
            }
        }
    )*};
}

effects!(
    MoveAll,
    PlaceAll,
    PinPicture,
    RemoveChosen,
    PerformChosen,
    Jump,
    ExtraTurn,
    EndCardPhase,
    Restrict,
    CancelTrigger,
    SetDestination,
);

/// A choice an instruction cannot take (the engine's own mistake: the
/// options it listed are the only ones applied).
fn not_for(instr: &(impl fmt::Debug + ?Sized), choice: Choice) -> PlayError {
    PlayError::internal(format!("{choice:?} for instruction {instr:?}"))
}

/// Every picking instruction runs, lists and applies the same way.
macro_rules! picking {
    ($($t:ty),* $(,)?) => {$(
        impl Instruction for $t {
            fn run<O: Observer>(
                &self,
                cx: &mut Ctx<'_, O>,
                at: &At,
                buf: &mut Vec<Choice>,
            ) -> Result<Progress, PlayError> {
                Ok(if self.offer(cx, at, buf) {
                    Progress::Ready(Actor::Player(at.actor))
                } else {
                    Progress::Continue
                })
            }

            /// The pick taken where it stands (`Pick::by_place`): one
            /// dispatch on the instruction where `run`, then `choose_run`,
            /// made two.
            fn run_by_place<O: Observer, P: Picker>(
                &self,
                cx: &mut Ctx<'_, O>,
                at: &At,
                buf: &mut Vec<Choice>,
                by: &mut ByPlace<'_, P>,
            ) -> Result<Flow, PlayError> {
                self.by_place(cx, at, buf, by)
            }

            fn options(&self, s: &State, r: &Rules, f: &RunFrame, out: &mut Vec<Choice>) -> Actor {
                self.candidates(s, r, f, out);
                if self.may_skip() {
                    out.push(Choice::Skip);
                }
                Actor::Player(f.actor)
            }

            fn take<O: Observer>(
                &self,
                cx: &mut Ctx<'_, O>,
                at: &At,
                choice: Choice,
            ) -> Result<(), PlayError> {
                self.apply(cx, at, choice)
            }

            fn kind(&self, _s: &State, _r: &Rules, f: &RunFrame) -> DecisionKind {
                DecisionKind::Action {
                    card: f.card,
                    ask: self.ask(f),
                }
            }
        }
    )*};
}

picking!(
    MoveTokens,
    Place,
    TrackToBag,
    PinFromTrack,
    BoardToBag,
    BoardToTrack,
    FlipOnBoard,
    UnpinPicture,
    ChooseCard,
    Branch,
);

/// Runs `$body` with `$i` bound to the instruction's own type: the one
/// list of the instruction types.
macro_rules! with_instruction {
    ($instr:expr, $i:ident => $body:expr) => {
        match $instr {
            Instr::Move($i) => $body,
            Instr::MoveAll($i) => $body,
            Instr::Place($i) => $body,
            Instr::PlaceAll($i) => $body,
            Instr::DrawToTrack($i) => $body,
            Instr::DrawAndPin($i) => $body,
            Instr::TrackToBag($i) => $body,
            Instr::BoardToBag($i) => $body,
            Instr::PinFromTrack($i) => $body,
            Instr::BoardToTrack($i) => $body,
            Instr::FlipOnBoard($i) => $body,
            Instr::PinPicture($i) => $body,
            Instr::UnpinPicture($i) => $body,
            Instr::DiscardRandom($i) => $body,
            Instr::ExtraTurn($i) => $body,
            Instr::EndCardPhase($i) => $body,
            Instr::PlayTopCard($i) => $body,
            Instr::Forbid($i) => $body,
            Instr::CancelTrigger($i) => $body,
            Instr::ChooseCard($i) => $body,
            Instr::RemoveChosen($i) => $body,
            Instr::PerformChosen($i) => $body,
            Instr::SetDestination($i) => $body,
            Instr::Branch($i) => $body,
            Instr::Jump($i) => $body,
        }
    };
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

    /// Goes on at instruction `pc`, with a fresh start inside it.
    fn jump(&mut self, pc: u16) {
        let f = self.run_frame();
        f.pc = pc;
        f.done = 0;
        f.picked.clear();
    }

    /// One step of the running program. `buf` (empty) receives the options
    /// of the decision its instruction waits for, when it lists them.
    pub(crate) fn step_run(&mut self, buf: &mut Vec<Choice>) -> Result<Progress, PlayError> {
        let Some(Frame::Run(f)) = self.s.stack.last() else {
            return Ok(Progress::Continue);
        };
        let at = At::of(f);
        let prog = code(self.r, f);
        let Some(instr) = prog.get(at.pc as usize) else {
            self.s.stack.drop_top();
            return Ok(Progress::Continue);
        };
        with_instruction!(instr, i => i.run(self, &at, buf))
    }

    /// The running program by place: its instructions one after the other
    /// while they run by themselves, each decision taken at once by the
    /// picker, until the program stops at a decision (`limit`), ends, or
    /// puts a frame above itself (a pin, a card played). Chained here
    /// rather than a trip through the engine's loop and its dispatch on the
    /// top frame each (issue 38); at most `CHAINED` at a time, so a program
    /// that never stops still meets the loop's count of automatic steps.
    /// Inlined into `play_by_place` for its `popcnt` build
    /// (`by_place::step_generic` says why).
    #[inline(always)]
    pub(crate) fn run_by_place<P: Picker>(
        &mut self,
        by: &mut ByPlace<'_, P>,
        buf: &mut Vec<Choice>,
    ) -> Result<Flow, PlayError> {
        const CHAINED: usize = 64;
        let depth = self.s.stack.len();
        let Some(Frame::Run(f)) = self.s.stack.last() else {
            return Ok(Flow::Go);
        };
        // Read once for the whole chain: the chain stops as soon as the
        // stack's depth changes, and an instruction only ever pushes
        // frames, so the top frame stays this one and runs this program
        // (issue 38).
        let prog = code(self.r, f);
        for _ in 0..CHAINED {
            let Some(Frame::Run(f)) = self.s.stack.last() else {
                return Ok(Flow::Go);
            };
            let at = At::of(f);
            let Some(instr) = prog.get(at.pc as usize) else {
                self.s.stack.drop_top();
                // A card's action ends its play at once, as the play's
                // next step would.
                if let Some(Frame::Play(p)) = self.s.stack.last() {
                    if p.stage == PlayStage::Running {
                        self.finish_play();
                    }
                }
                return Ok(Flow::Go);
            };
            buf.clear();
            if let Flow::Stop = with_instruction!(instr, i => i.run_by_place(self, &at, buf, by))? {
                return Ok(Flow::Stop);
            }
            if self.s.outcome.is_some() || self.s.stack.len() != depth {
                return Ok(Flow::Go);
            }
        }
        Ok(Flow::Go)
    }

    /// Applies a decision of the running program's instruction.
    pub(crate) fn choose_run(&mut self, choice: Choice) -> Result<(), PlayError> {
        let Some(Frame::Run(f)) = self.s.stack.last() else {
            return Err(PlayError::internal("no program on top"));
        };
        let at = At::of(f);
        let prog = code(self.r, f);
        let Some(instr) = prog.get(at.pc as usize) else {
            return Err(PlayError::internal("program ended before a decision"));
        };
        with_instruction!(instr, i => i.take(self, &at, choice))
    }

    /// A token comes onto the track (from the bag or the board) on space
    /// `space` of `side`'s half; the last space gains it at once (R5.8).
    fn arrive_on_track(&mut self, t: TokenId, space: u8, face_up: bool, side: Side) {
        let pos = side.sign() * (space as i8).min(self.track_len());
        self.put_on_track(t, pos, face_up);
        self.o.event(super::Event::EvidenceDrawn {
            token: t,
            pos,
            face_up,
        });
        if pos.abs() == self.track_len() {
            self.gain_evidence(t, side);
        }
    }
}

impl State {
    fn top_run(&self) -> Option<&RunFrame> {
        match self.stack.last() {
            Some(Frame::Run(f)) => Some(f),
            _ => None,
        }
    }

    /// The stack index of the play a reaction's program answers (`play` is
    /// the program's own play).
    fn trigger_index(&self, play: Option<u8>) -> Option<usize> {
        match self.stack.get(play? as usize) {
            Some(Frame::Play(p)) => p.reacting_to.map(|i| i as usize),
            _ => None,
        }
    }

    /// The play the running reaction answers.
    fn trigger_play(&self) -> Option<&PlayFrame> {
        let f = self.top_run()?;
        match self.stack.get(self.trigger_index(f.play)?) {
            Some(Frame::Play(p)) => Some(p),
            _ => None,
        }
    }

    pub(crate) fn run_options(&self, r: &Rules, out: &mut Vec<Choice>) -> Actor {
        let Some(f) = self.top_run() else {
            return Actor::Chance;
        };
        let prog = code(r, f);
        let Some(instr) = prog.get(f.pc as usize) else {
            return Actor::Player(f.actor);
        };
        with_instruction!(instr, i => i.options(self, r, f, out))
    }

    pub(crate) fn run_kind(&self, r: &Rules, f: &RunFrame) -> DecisionKind {
        let prog = code(r, f);
        let Some(instr) = prog.get(f.pc as usize) else {
            return DecisionKind::Action {
                card: f.card,
                ask: Ask::Continue,
            };
        };
        with_instruction!(instr, i => i.kind(self, r, f))
    }
}
