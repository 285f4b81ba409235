//! Instructions on cards: one chosen, then removed or performed (The system
//! works, docs/open-questions.md#q7); random cards discarded
//! (docs/open-questions.md#q4); the top card drawn and played at once
//! (docs/open-questions.md#q3).

use super::{At, Effect, Instruction, Pick};
use crate::game::engine::choice::*;
use crate::game::engine::event::{Event, Observer};
use crate::game::engine::{Ctx, PlayError, Progress};
use crate::game::model::*;
use crate::game::program::*;
use crate::game::rules::Rules;
use crate::game::state::*;

impl Pick for ChooseCard {
    fn candidates(&self, s: &State, r: &Rules, f: &RunFrame, out: &mut Vec<Choice>) {
        let side = self.who.resolve(f.actor);
        // Removed cards are one pile for both sides: only `side`'s count.
        let (pool, only_side): (&[CardId], bool) = match self.zone {
            Zone::Hand => (&s.hands[side], false),
            Zone::Discard => (&s.discards[side], false),
            Zone::Removed => (&s.removed, true),
        };
        for &c in pool {
            let card = r.card(c);
            if only_side && card.side != side {
                continue;
            }
            if !self.filter.types.admits(card.card_type) {
                continue;
            }
            if self
                .filter
                .reaction
                .is_some_and(|want| want != card.is_reaction())
            {
                continue;
            }
            // The chosen card's action is carried out within the turn in
            // progress (The system works, Q5, Q7).
            if self.filter.usable && !s.action_usable(r, f.actor, c, PlayedAs::WithinTurn) {
                continue;
            }
            out.push(Choice::Card(c));
        }
    }

    fn may_skip(&self) -> bool {
        self.optional
    }

    /// Nothing to choose: the instructions for the chosen card are skipped,
    /// and nothing is chosen (as with `Skip`: a card chosen by an earlier
    /// `choose_card` is not carried into what follows).
    fn pass_over<O: Observer>(&self, cx: &mut Ctx<'_, O>) {
        cx.run_frame().chosen = None;
        cx.jump(self.skip_to);
    }

    fn apply<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        _at: &At,
        choice: Choice,
    ) -> Result<(), PlayError> {
        let f = cx.run_frame();
        match choice {
            Choice::Card(c) => {
                f.chosen = Some(c);
                f.pc += 1;
            }
            Choice::Skip => {
                f.chosen = None;
                f.pc = self.skip_to;
            }
            _ => return Err(super::not_for(self, choice)),
        }
        Ok(())
    }

    fn ask(&self, _f: &RunFrame) -> Ask {
        Ask::ChooseCard {
            prompt: self.prompt.clone(),
        }
    }
}

impl Effect for RemoveChosen {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError> {
        cx.next();
        if let Some(c) = at.chosen {
            if cx.lift_card(c) {
                cx.put_card(c, Dest::Removed);
            }
        }
        Ok(())
    }
}

/// How deep the frame stack may be when a card's action performs another
/// card's: the shipped game nests at most seven frames. A card that
/// performs itself, or two that perform each other, would otherwise nest
/// without end, past every decision's reach (the script sandbox sees each
/// run as short): memory grew until the process aborted, or a player that
/// always chose to perform never finished a game.
pub(crate) const MAX_PERFORM_DEPTH: usize = 48;

impl Effect for PerformChosen {
    fn carry_out<O: Observer>(&self, cx: &mut Ctx<'_, O>, at: &At) -> Result<(), PlayError> {
        cx.next();
        if let Some(c) = at.chosen {
            if cx.s.stack.len() >= MAX_PERFORM_DEPTH {
                return Err(performs_without_end(cx.r, at.card, c));
            }
            // docs/open-questions.md#q7: as if played, but no new reaction
            // window; the chosen card stays where it is.
            let prog = cx.card_program(c, at.actor)?;
            cx.s.stack
                .push(Frame::Run(RunFrame::new(prog, at.actor, Some(c), None)));
        }
        Ok(())
    }
}

impl Instruction for DiscardRandom {
    fn run<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        _buf: &mut Vec<Choice>,
    ) -> Result<Progress, PlayError> {
        let side = self.who.resolve(at.actor);
        let hand_len = cx.s.hands[side].len();
        if at.done >= self.count || hand_len == 0 {
            cx.next();
            return Ok(Progress::Continue);
        }
        if cx.s.explicit_chance {
            return Ok(Progress::Decide);
        }
        let i = cx.s.below(hand_len);
        cx.run_frame().done += 1;
        cx.discard_from_hand(side, i);
        Ok(Progress::Continue)
    }

    /// One outcome per card in hand, each as likely.
    fn options(&self, s: &State, _r: &Rules, f: &RunFrame, out: &mut Vec<Choice>) -> Actor {
        let n = s.hands[self.who.resolve(f.actor)].len();
        out.extend((0..n).map(|i| Choice::Chance(i as u8)));
        Actor::Chance
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
        let side = self.who.resolve(at.actor);
        cx.run_frame().done += 1;
        if (i as usize) < cx.s.hands[side].len() {
            cx.discard_from_hand(side, i as usize);
        }
        Ok(())
    }

    fn kind(&self, _s: &State, _r: &Rules, _f: &RunFrame) -> DecisionKind {
        DecisionKind::Chance {
            what: ChanceOf::CardDiscarded,
            weights: vec![],
        }
    }
}

impl Instruction for PlayTopCard {
    fn run<O: Observer>(
        &self,
        cx: &mut Ctx<'_, O>,
        at: &At,
        _buf: &mut Vec<Choice>,
    ) -> Result<Progress, PlayError> {
        let actor = at.actor;
        if cx.s.explicit_deals {
            // Which card of the deck is drawn is chance's decision; an
            // empty deck takes the discard pile first (R4.1).
            if cx.refill_deck(actor) {
                return Ok(Progress::Decide);
            }
            cx.next();
            return Ok(Progress::Continue);
        }
        if cx.s.explicit_chance && cx.s.decks[actor].is_empty() && !cx.s.discards[actor].is_empty()
        {
            // The deck is reshuffled: which card comes out on top is
            // chance's decision, not the generator's (for the solver).
            return Ok(Progress::Decide);
        }
        cx.next();
        if let Some(card) = cx.draw_card(actor) {
            cx.play_drawn(actor, card);
        }
        Ok(Progress::Continue)
    }

    /// Only asked when the deck is reshuffled (see `run`): one outcome per
    /// card of the discard pile, each as likely. With explicit deals: one
    /// per card of the deck.
    fn options(&self, s: &State, _r: &Rules, f: &RunFrame, out: &mut Vec<Choice>) -> Actor {
        let n = if s.explicit_deals {
            s.decks[f.actor].len()
        } else {
            s.discards[f.actor].len()
        };
        out.extend((0..n).map(|i| Choice::Chance(i as u8)));
        Actor::Chance
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
        cx.next();
        if cx.s.explicit_deals {
            if let Some(card) = cx.take_from_deck(at.actor, i as usize) {
                cx.play_drawn(at.actor, card);
            }
            return Ok(());
        }
        if let Some(card) = cx.reshuffle_with_top(at.actor, i as usize) {
            cx.play_drawn(at.actor, card);
        }
        Ok(())
    }

    fn kind(&self, s: &State, _r: &Rules, f: &RunFrame) -> DecisionKind {
        if s.explicit_deals {
            return DecisionKind::Chance {
                what: ChanceOf::CardDrawn,
                weights: vec![],
            };
        }
        let n = s.discards[f.actor].len();
        DecisionKind::Chance {
            what: ChanceOf::TopOfReshuffledDeck,
            weights: vec![1; n],
        }
    }
}

impl<O: Observer> Ctx<'_, O> {
    /// Q3: the card drawn by an action is played at once.
    fn play_drawn(&mut self, actor: Side, card: CardId) {
        self.o.event(Event::DrewToPlay { side: actor, card });
        self.s.push_frame(|| {
            Frame::Play(PlayFrame {
                card,
                player: actor,
                part: None,
                stage: PlayStage::ChoosePart,
                target: None,
                cancelled: None,
                reacting_to: None,
                dest: None,
            })
        });
    }
}

/// The failure of a `perform_chosen_action` nested `MAX_PERFORM_DEPTH`
/// deep, charged to the card whose script performs (at its call).
fn performs_without_end(r: &Rules, performer: Option<CardId>, chosen: CardId) -> PlayError {
    let (card, unit) = match performer {
        Some(p) => (r.card(p).name.clone(), Some(r.card(p).unit)),
        None => ("a momentum space".to_string(), None),
    };
    let script = unit.map_or("", |u| r.scripts.display(u)).to_string();
    let script_text = unit.map_or("", |u| r.scripts.text(u)).to_string();
    let (line, col) = script_text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("perform_chosen_action").map(|c| (i + 1, c + 1)))
        .unwrap_or((0, 0));
    PlayError::Script(Box::new(crate::game::engine::ScriptError {
        card,
        script,
        line,
        col,
        message: format!(
            "`perform_chosen_action` nested {MAX_PERFORM_DEPTH} deep (performing {} again): \
             a card that performs itself, or cards that perform each other, never end",
            r.card(chosen).name
        ),
        script_text,
    }))
}
