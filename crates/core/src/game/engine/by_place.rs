//! Playing on by place: a player who picks an option by its place among
//! the options, without looking at them (the random player, a search's
//! playouts), needs only their number. For the common decisions (a turn, a
//! value play's target, a pin) the engine counts the options from sets
//! (`TurnOptions`, `ValueTargets`, the pin's `SpaceSet`) and takes the one
//! picked where it stands: no list of options is built, no `Choice` is
//! dispatched on, and a value play nobody can answer runs from the hand to
//! the moved token with no frame on the stack. Every other decision is
//! taken the generic way, from its list (`advance_to`'s loop).
//!
//! The game is the same as `apply_next` with the option at that place,
//! event for event and state for state, wherever it stops
//! (`tests/rules/by_place.rs` compares them at every decision). What it
//! gained is in BENCHMARKS.md (issue 38).

use super::choice::*;
use super::event::Observer;
use super::play::ValueTargets;
use super::{Ctx, PlayError, Progress, MAX_AUTOMATIC_STEPS};
use crate::game::model::*;
use crate::game::rules::Action;
use crate::game::state::*;

/// Who picks an option by its place (`State::play_by_place`): any
/// `FnMut(Actor, usize) -> usize` closure, or a type whose `pick` is
/// marked `#[inline(always)]`, which the loop's `popcnt` build then
/// inlines (it did not inline the random player's closure, a call at
/// every decision: issue 38).
pub trait Picker {
    /// The place of the option `actor` takes among `n` (two or more).
    fn pick(&mut self, actor: Actor, n: usize) -> usize;
}

impl<F: FnMut(Actor, usize) -> usize> Picker for F {
    #[inline(always)]
    fn pick(&mut self, actor: Actor, n: usize) -> usize {
        self(actor, n)
    }
}

/// The picker and the count of decisions: `take` is asked at every
/// decision, forced ones included.
pub(crate) struct ByPlace<'p, P> {
    pick: &'p mut P,
    taken: u64,
    limit: u64,
}

impl<P: Picker> ByPlace<'_, P> {
    /// The place of the option taken among `n` (`n` ≥ 1): the only one
    /// when there is one (not a decision), else the picker's. `None` when
    /// `limit` decisions were taken: the game stops at this one.
    #[inline(always)]
    pub(crate) fn take(&mut self, actor: Actor, n: usize) -> Option<usize> {
        if n < 2 {
            return Some(0);
        }
        if self.taken == self.limit {
            return None;
        }
        self.taken += 1;
        Some(self.pick.pick(actor, n))
    }
}

/// Whether a step of the loop goes on or stops at a decision.
pub(crate) enum Flow {
    Go,
    Stop,
}

impl<O: Observer> Ctx<'_, O> {
    /// `State::play_by_place`: from a decision (or the game's end), plays
    /// on until the game is over or `limit` decisions were taken; then it
    /// stops at the next decision, as `apply_next` does. The decisions
    /// taken.
    pub(crate) fn play_by_place(
        &mut self,
        limit: u64,
        pick: &mut impl Picker,
        buf: &mut Vec<Choice>,
    ) -> Result<u64, PlayError> {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has `popcnt`, checked just above.
            return unsafe { self.play_by_place_popcnt(limit, pick, buf) };
        }
        self.play_by_place_here(limit, pick, buf)
    }

    /// `play_by_place` compiled with the `popcnt` instruction, for the
    /// processors that have it (all x86-64 ones since about 2009; the
    /// build targets plain x86-64, which lacks it). The sets the loop
    /// counts (a turn's options, a value play's targets, a program's
    /// picks) are counted with `count_ones`, which plain x86-64 computes
    /// in about 20 instructions: about 5 % of a random game's (issue 38).
    /// Everything inlined into the loop is compiled for `popcnt` too; the
    /// functions it calls are not. Both builds come from the one body
    /// (`play_by_place_here`) and play the same games.
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    #[target_feature(enable = "popcnt")]
    unsafe fn play_by_place_popcnt(
        &mut self,
        limit: u64,
        pick: &mut impl Picker,
        buf: &mut Vec<Choice>,
    ) -> Result<u64, PlayError> {
        self.play_by_place_here(limit, pick, buf)
    }

    /// The loop of `play_by_place`, for whichever instructions it is
    /// compiled with.
    #[inline(always)]
    fn play_by_place_here(
        &mut self,
        limit: u64,
        pick: &mut impl Picker,
        buf: &mut Vec<Choice>,
    ) -> Result<u64, PlayError> {
        let mut by = ByPlace {
            pick,
            taken: 0,
            limit,
        };
        // Steps since the last decision, as `advance_to` counts them.
        let mut steps = 0;
        loop {
            if self.s.outcome.is_some() {
                self.s.phase = Phase::Over;
                return Ok(by.taken);
            }
            if steps == MAX_AUTOMATIC_STEPS {
                return Err(self.stuck());
            }
            steps += 1;
            let taken = by.taken;
            let flow = match self.s.stack.last() {
                None if self.s.phase == Phase::Cards && !self.s.hands[self.s.turn].is_empty() => {
                    self.turn_by_place(&mut by)?
                }
                Some(&Frame::Play(play))
                    if matches!(
                        play.stage,
                        PlayStage::ChooseTarget | PlayStage::Locked(_) | PlayStage::Reveal(_)
                    ) =>
                {
                    self.value_play_by_place(&mut by, play, true)?
                }
                Some(&Frame::Pin { token, pinner }) => {
                    let spaces = self.s.pin_spaces(self.r, token);
                    if spaces.is_empty() {
                        // Nowhere to pin: the generic step says what then.
                        self.step_generic(&mut by, buf)?
                    } else {
                        let Some(k) = by.take(Actor::Player(pinner), spaces.len()) else {
                            return Ok(by.taken);
                        };
                        let Some(space) = spaces.nth(k) else {
                            unreachable!("space {k} of {} to pin on", spaces.len())
                        };
                        self.choose_pin(token, pinner, Choice::Space(space))?;
                        Flow::Go
                    }
                }
                Some(Frame::Run(_)) => self.run_by_place(&mut by, buf)?,
                _ => self.step_generic(&mut by, buf)?,
            };
            if let Flow::Stop = flow {
                return Ok(by.taken);
            }
            if by.taken != taken {
                steps = 0;
            }
        }
    }

    /// One step of `advance_to`'s loop, a decision taken from its list.
    /// Inlined, as `turn_by_place` and the card programs' `run_by_place`
    /// are: the `popcnt` build of the loop compiles only what is inlined
    /// into it for `popcnt`.
    #[inline(always)]
    fn step_generic<P: Picker>(
        &mut self,
        by: &mut ByPlace<'_, P>,
        buf: &mut Vec<Choice>,
    ) -> Result<Flow, PlayError> {
        buf.clear();
        let progress = self.step(buf)?;
        // Most generic steps decide nothing (the evaluation, a new round,
        // a play resolved): they go on here, without the call, whose
        // register saves cost more than its work (issue 38).
        if let Progress::Continue = progress {
            return Ok(Flow::Go);
        }
        self.decide_by_place(progress, by, buf)
    }

    /// After a generic step: nothing to decide, or the decision it stopped
    /// at taken from its list (`buf` holds it when the step listed it).
    pub(crate) fn decide_by_place<P: Picker>(
        &mut self,
        progress: Progress,
        by: &mut ByPlace<'_, P>,
        buf: &mut Vec<Choice>,
    ) -> Result<Flow, PlayError> {
        let actor = match progress {
            Progress::Continue => return Ok(Flow::Go),
            Progress::Decide => {
                buf.clear();
                self.s.options_into(self.r, buf)
            }
            Progress::Ready(actor) => actor,
        };
        if buf.is_empty() {
            return Err(self.no_options());
        }
        let Some(k) = by.take(actor, buf.len()) else {
            return Ok(Flow::Stop);
        };
        self.choose(buf[k])?;
        Ok(Flow::Go)
    }

    /// A turn (R5.1) by place: the card and part picked among
    /// `TurnOptions`, taken from the hand as `choose_idle` does. A value
    /// play goes on at once: its target is picked among `ValueTargets`
    /// and, when the opponent cannot answer it (R6), the token moves with
    /// no frame on the stack. Whatever else comes (an action, an ask, a
    /// reaction window, a decision left for after `limit`) gets the play's
    /// frame as `begin_play` and `choose_play` would have left it.
    /// Inlined for `popcnt` (`step_generic` says why).
    #[inline(always)]
    fn turn_by_place<P: Picker>(&mut self, by: &mut ByPlace<'_, P>) -> Result<Flow, PlayError> {
        let (r, side) = (self.r, self.s.turn);
        let options = self.s.turn_options(r);
        let Some(k) = by.take(Actor::Player(side), options.len()) else {
            return Ok(Flow::Stop);
        };
        let (i, part) = options.nth(k);
        let card = self.play_from_hand(i, part);
        let play = PlayFrame {
            card,
            player: side,
            part: Some(part),
            stage: PlayStage::ChooseTarget,
            target: None,
            cancelled: None,
            reacting_to: None,
            dest: None,
        };
        if part == Part::Action {
            // An action computed at load whose play nobody may answer
            // (R6): the play and its program's frame go on the stack as
            // `begin_play` then `resolve` would leave them, each built
            // where it stays (`FrameStack::push_two_with`; issue 38). An
            // action a script computes now goes the long way: its script
            // sees the play on the stack.
            if let Action::Static(_) = r.card(card).action {
                let play = PlayFrame {
                    part: Some(part),
                    stage: PlayStage::Running,
                    ..play
                };
                if !self.s.has_reaction(r, &play) {
                    self.o.unanswered(self.s, &play);
                    let idx = self.s.stack.len() as u8;
                    // Spelled out rather than copied from `play` (which
                    // lies in memory for `has_reaction`). What removed the
                    // stall was `push_two_with` making room before it
                    // writes; the compiler may build both the same way.
                    self.s.stack.push_two_with(
                        || {
                            Frame::Play(PlayFrame {
                                card,
                                player: side,
                                part: Some(part),
                                stage: PlayStage::Running,
                                target: None,
                                cancelled: None,
                                reacting_to: None,
                                dest: None,
                            })
                        },
                        || {
                            Frame::Run(RunFrame::new(
                                ProgRef::Card(card),
                                side,
                                Some(card),
                                Some(idx),
                            ))
                        },
                    );
                    return Ok(Flow::Go);
                }
            }
            self.begin_play(card, side, part, None);
            // Nobody may answer: the play resolves at once, as its next
            // step would (its program's frame goes on top).
            if let Some(Frame::Play(p)) = self.s.stack.last() {
                if p.stage == PlayStage::Resolve {
                    self.resolve()?;
                }
            }
            return Ok(Flow::Go);
        }
        self.value_play_by_place(by, play, false)
    }

    /// A value play's target by place (R5.3–R5.6): at `play`'s stage
    /// (`ChooseTarget`, `Locked` or `Reveal`), the token picked among the
    /// stage's options is taken as `choose_play` takes it. `on_stack`:
    /// whether the play is the top frame (it is then changed or ended
    /// there), or not yet on the stack (a turn by place: it gets its frame
    /// only if the play goes on, or the game stops at this decision).
    #[inline(always)]
    fn value_play_by_place<P: Picker>(
        &mut self,
        by: &mut ByPlace<'_, P>,
        play: PlayFrame,
        on_stack: bool,
    ) -> Result<Flow, PlayError> {
        let r = self.r;
        let (targets, actor) = match play.stage {
            // R5.6: Nixon reveals one of his face-down tokens of the colour.
            PlayStage::Reveal(colour) => (
                ValueTargets::slots(self.s.face_down_slots(r, colour)),
                Side::Nixon,
            ),
            stage => (
                self.s.value_target_set(r, play.card, play.player, stage),
                play.player,
            ),
        };
        let n = targets.len();
        if n == 0 {
            if let PlayStage::Reveal(_) = play.stage {
                return Err(self.no_options());
            }
            // docs/open-questions.md#q11: nothing can move; the turn still counts.
            if on_stack {
                self.s.stack.drop_top();
            }
            self.put_card(play.card, Dest::Discard);
            return Ok(Flow::Go);
        }
        let Some(k) = by.take(Actor::Player(actor), n) else {
            if !on_stack {
                self.s.push_frame(|| Frame::Play(play));
            }
            return Ok(Flow::Stop);
        };
        let play = match targets.nth_target(&self.s.track, k) {
            Ok(target) => {
                if let Moving::Evidence(tok) = target {
                    // R5.5, R5.6: a face-down token chosen is turned up.
                    self.reveal(tok);
                }
                let play = PlayFrame {
                    target: Some(target),
                    ..play
                };
                if !self.s.has_reaction(r, &play) {
                    self.o.unanswered(self.s, &play);
                    // `resolve`: R5.7, the card to the discard pile and
                    // the token moves.
                    if on_stack {
                        self.s.stack.drop_top();
                    }
                    self.put_card(play.card, Dest::Discard);
                    self.move_token(target, r.card(play.card).value, play.player)?;
                    return Ok(Flow::Go);
                }
                // R6: the opponent may answer.
                PlayFrame {
                    stage: PlayStage::Window,
                    ..play
                }
            }
            Err(colour) => PlayFrame {
                stage: self.ask_colour(colour),
                ..play
            },
        };
        if on_stack {
            self.set_top_play(play);
        } else {
            self.s.push_frame(|| Frame::Play(play));
        }
        Ok(Flow::Go)
    }
}
