//! The rules engine. A game is a [`State`]; the engine stops at every
//! decision, exposes the legal options ([`State::decision`]) and takes one of
//! them ([`State::apply`]). Anything else is refused with a reason and the
//! state is left exactly as it was.
//!
//! Inside, the engine is a small machine over the state's stack of frames:
//! [`State::stack`]'s top frame says what happens next. Each step either does
//! automatic work (dealing, moving, evaluating) or stops at a decision; a
//! decision with a single option is taken at once. Three doors, as in
//! shakmaty: [`State::decision`] / [`State::legal`] list options,
//! [`State::apply`] checks and rolls back, [`State::apply_unchecked`] trusts
//! the caller (search).

mod board;
mod by_place;
pub mod choice;
mod effects;
pub mod event;
mod flow;
pub mod notation;
mod play;
mod vm;

pub use board::{connected_informant_pictures, connected_informants};
pub use by_place::Picker;
pub use choice::*;
pub use event::*;

use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::*;
use rand::SeedableRng;
use thiserror::Error;

/// A card script failed while the game ran it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{script}:{line}:{col}: card `{card}`: {message}")]
pub struct ScriptError {
    /// The card (or momentum space, "Editor space 3") whose script failed, by name.
    pub card: String,
    /// The script's file, as diagnostics name it.
    pub script: String,
    /// The line of the failure in the script, from 1 (0: not known).
    pub line: usize,
    /// The column of the failure in the script, from 1 (0: not known).
    pub col: usize,
    /// What went wrong, in words.
    pub message: String,
    /// The script's text as the game ran it, so that the failing line can
    /// be shown whichever file it came from (a data folder, a variant's
    /// file, the shipped copy) and whatever is on disk now.
    pub script_text: String,
}

/// Why a choice was refused or could not be carried out.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// A choice was offered to a game that is over (R8.4).
    #[error("the game is over")]
    GameOver,
    /// The choice is not one of the legal options; the reason says why.
    #[error("{0}")]
    Illegal(Box<String>),
    /// A card script failed while it ran.
    #[error(transparent)]
    Script(#[from] Box<ScriptError>),
    /// The engine broke one of its own invariants (a bug, not the caller's).
    #[error("engine invariant broken: {0}")]
    Internal(Box<String>),
    /// The position can never reach a decision (no cards anywhere, say).
    #[error("{0}")]
    Stuck(Box<String>),
}

// The payloads are boxed so that a `Result<_, PlayError>`, which every
// step of the engine returns, is two words and comes back in registers:
// 88 bytes with them inline cost 3.7 % of a random game's instructions
// (BENCHMARKS.md, session 6).
impl PlayError {
    /// A choice refused, and why.
    pub fn illegal(reason: impl Into<String>) -> PlayError {
        PlayError::Illegal(Box::new(reason.into()))
    }

    /// An engine invariant broken.
    pub fn internal(what: impl Into<String>) -> PlayError {
        PlayError::Internal(Box::new(what.into()))
    }

    /// A position that can never reach a decision.
    pub fn stuck(why: impl Into<String>) -> PlayError {
        PlayError::Stuck(Box::new(why.into()))
    }
}

/// Steps taken without a decision before the engine assumes it is stuck.
const MAX_AUTOMATIC_STEPS: usize = 100_000;

/// The engine at work on one state: the rules, the state and who listens.
pub(crate) struct Ctx<'a, O: Observer> {
    pub r: &'a Rules,
    pub s: &'a mut State,
    pub o: &'a mut O,
}

impl<'a, O: Observer> Ctx<'a, O> {
    pub(crate) fn new(r: &'a Rules, s: &'a mut State, o: &'a mut O) -> Self {
        Ctx { r, s, o }
    }
}

/// What a step did.
pub(crate) enum Progress {
    /// Automatic work was done; step again.
    Continue,
    /// The top frame waits for a decision.
    Decide,
    /// The top frame waits for a decision whose options the step has
    /// already listed (in the buffer `step` was given), taken by this
    /// actor: the options are not computed a second time.
    Ready(Actor),
}

impl State {
    /// Sets up a game (R2) from a seed and runs it to the first decision.
    pub fn new(rules: &Rules, seed: u64) -> State {
        Self::new_observed(rules, seed, &mut Quiet)
    }

    /// [`State::new`], telling `o` each event of the setup and the first
    /// initial phase.
    pub fn new_observed<O: Observer>(rules: &Rules, seed: u64, o: &mut O) -> State {
        Self::start(rules, State::setup(rules, seed), o)
    }

    /// A new game in which every random event is chance's decision
    /// (`set_explicit_deals`): it stops at the deal's first card. No seed:
    /// after the setup's shuffles (whose order no draw then reads) the
    /// generator is never used, so every game starts the same.
    pub fn new_explicit(rules: &Rules) -> State {
        Self::new_explicit_observed(rules, &mut Quiet)
    }

    /// [`State::new_explicit`], telling `o` each event up to the first
    /// decision.
    pub fn new_explicit_observed<O: Observer>(rules: &Rules, o: &mut O) -> State {
        let mut s = State::setup(rules, 0);
        s.set_explicit_deals(true);
        Self::start(rules, s, o)
    }

    /// Runs a set-up position (R2) to the first decision.
    fn start<O: Observer>(rules: &Rules, mut s: State, o: &mut O) -> State {
        o.event(Event::RoundStarted {
            round: 1,
            initiative: s.initiative,
        });
        // Setup runs only shipped primitives: no script can fail here.
        if let Err(e) = Ctx::new(rules, &mut s, o).advance() {
            debug_assert!(false, "setup failed: {e}");
        }
        s
    }

    /// The position of R2, before the first initial phase.
    pub fn setup(rules: &Rules, seed: u64) -> State {
        let n = &rules.numbers;
        // The lists come laid out from the rules (`StartingLists`); only
        // the shuffles are the game's own.
        let start = &rules.start;
        let mut s = State {
            rng: GameRng::seed_from_u64(seed),
            explicit_chance: false,
            explicit_deals: false,
            round: 1,
            phase: Phase::Initial,
            initiative: n.first_initiative,
            initiative_token: Some(0),
            momentum_token: (n.momentum_on_track_at_start > 0).then_some(0),
            momentum_supply: n.momentum_tokens - n.momentum_on_track_at_start,
            momentum_cards: BySide::default(),
            momentum_removed: 0,
            evidence: start.evidence.clone(),
            board_taken: SpaceSet::EMPTY,
            board_face_up: SpaceSet::EMPTY,
            track_face_down: 0,
            track: Default::default(),
            bag: start.bag.clone(),
            pictures: start.pictures.clone(),
            pictures_in_supply: start.pictures_in_supply,
            hands: Default::default(),
            decks: start.decks.clone(),
            discards: Default::default(),
            removed: Default::default(),
            turn: n.first_initiative,
            turns_played: BySide::default(),
            forbidden: Default::default(),
            stack: Default::default(),
            outcome: None,
        };
        // R2.1: each player shuffles their cards into a deck.
        for side in Side::BOTH {
            shuffle(&mut s.rng, &mut s.decks[side]);
        }
        // R2.5: the bag tokens, in random order.
        shuffle(&mut s.rng, &mut s.bag);
        s
    }

    /// The pending decision, or `None` when the game is over.
    pub fn decision(&self, rules: &Rules) -> Option<Decision> {
        let mut options = Vec::new();
        let actor = self.legal(rules, &mut options)?;
        Some(Decision {
            actor,
            kind: self.decision_kind(rules),
            options,
        })
    }

    /// Fills `out` with the legal options and returns who decides; `None`
    /// (and `out` empty) when the game is over.
    pub fn legal(&self, rules: &Rules, out: &mut Vec<Choice>) -> Option<Actor> {
        out.clear();
        if self.outcome.is_some() {
            return None;
        }
        Some(self.options_into(rules, out))
    }

    /// Whether `choice` is one of the legal options now.
    pub fn is_legal(&self, rules: &Rules, choice: Choice) -> bool {
        let mut v = Vec::new();
        self.legal(rules, &mut v).is_some() && v.contains(&choice)
    }

    /// Takes one of the legal options and runs the game to the next decision.
    /// Anything that is not an option is refused with a reason, and on any
    /// error the state is left exactly as it was.
    pub fn apply(&mut self, rules: &Rules, choice: Choice) -> Result<(), PlayError> {
        self.apply_observed(rules, choice, &mut Quiet)
    }

    /// [`State::apply`], telling `o` each event.
    pub fn apply_observed<O: Observer>(
        &mut self,
        rules: &Rules,
        choice: Choice,
        o: &mut O,
    ) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let mut options = Vec::new();
        let actor = self.options_into(rules, &mut options);
        if !options.contains(&choice) {
            return Err(PlayError::illegal(
                self.explain_illegal(rules, actor, choice, &options),
            ));
        }
        let backup = self.clone();
        let result = Ctx::new(rules, self, o).take(choice);
        if result.is_err() {
            *self = backup;
        }
        result
    }

    /// Applies a choice known to be legal, without checking and without
    /// rollback: for search and simulation, which only pick listed options.
    /// On error the state is unusable.
    pub fn apply_unchecked(&mut self, rules: &Rules, choice: Choice) -> Result<(), PlayError> {
        Ctx::new(rules, self, &mut Quiet).take(choice)
    }

    /// [`State::apply_unchecked`], telling `o` each event.
    pub fn apply_unchecked_observed<O: Observer>(
        &mut self,
        rules: &Rules,
        choice: Choice,
        o: &mut O,
    ) -> Result<(), PlayError> {
        Ctx::new(rules, self, o).take(choice)
    }

    /// Applies a choice known to be legal (as [`State::apply_unchecked`])
    /// and returns the next decision: `options` is filled with its options
    /// and the actor is returned; `None` (and `options` empty) when the game
    /// is over. The options are computed once, by the step that stops at the
    /// decision, instead of again by the caller's next [`State::legal`].
    pub fn apply_next(
        &mut self,
        rules: &Rules,
        choice: Choice,
        options: &mut Vec<Choice>,
    ) -> Result<Option<Actor>, PlayError> {
        self.apply_next_observed(rules, choice, options, &mut Quiet)
    }

    /// [`State::apply_next`], telling `o` each event.
    pub fn apply_next_observed<O: Observer>(
        &mut self,
        rules: &Rules,
        choice: Choice,
        options: &mut Vec<Choice>,
        o: &mut O,
    ) -> Result<Option<Actor>, PlayError> {
        let mut ctx = Ctx::new(rules, self, o);
        ctx.choose(choice)?;
        ctx.advance_to(options)
    }

    /// Plays on by place, from a decision (as [`State::new`],
    /// [`State::apply_next`] and [`State::settle`] leave a game) or the
    /// game's end: at each decision with two options or more,
    /// `pick.pick(actor, n)` (a [`Picker`]: a closure will do) gives the
    /// place (below `n`) of the option taken
    /// among the `n` that [`State::legal`] would list, and the game goes on
    /// exactly as [`State::apply_next`] with that option would take it.
    /// The common decisions are counted and taken with no list of options
    /// (`engine::by_place`); `buf` holds the others' options.
    ///
    /// Stops when the game is over, or at the next decision once `limit`
    /// decisions were taken; returns how many were taken. As with
    /// [`State::apply_unchecked`], the state is unusable after an error.
    pub fn play_by_place<O: Observer>(
        &mut self,
        rules: &Rules,
        limit: u64,
        pick: &mut impl Picker,
        buf: &mut Vec<Choice>,
        o: &mut O,
    ) -> Result<u64, PlayError> {
        Ctx::new(rules, self, o).play_by_place(limit, pick, buf)
    }

    /// Checks and applies a choice like [`State::apply`], and returns the
    /// decision it leads to (`None` when the game is over).
    pub fn apply_decide(
        &mut self,
        rules: &Rules,
        choice: Choice,
    ) -> Result<Option<Decision>, PlayError> {
        self.apply(rules, choice)?;
        Ok(self.decision(rules))
    }

    /// Runs the game to the next decision (after a scenario set a position).
    pub fn settle(&mut self, rules: &Rules) -> Result<(), PlayError> {
        self.settle_observed(rules, &mut Quiet)
    }

    /// [`State::settle`], telling `o` each event and forced move.
    pub fn settle_observed<O: Observer>(
        &mut self,
        rules: &Rules,
        o: &mut O,
    ) -> Result<(), PlayError> {
        Ctx::new(rules, self, o).advance()
    }

    fn explain_illegal(
        &self,
        rules: &Rules,
        actor: Actor,
        choice: Choice,
        options: &[Choice],
    ) -> String {
        let who = match actor {
            Actor::Player(s) => s.name().to_string(),
            Actor::Chance => "chance".to_string(),
        };
        let what = match self.decision_kind(rules) {
            DecisionKind::PlayCard => "play a card from hand".to_string(),
            DecisionKind::ChoosePart { .. } => "choose the part of the drawn card".to_string(),
            DecisionKind::ValueTarget { .. } => "choose the token to move".to_string(),
            DecisionKind::Reveal { colour } => format!("reveal a face-down {colour} token"),
            DecisionKind::LockedTarget { colour, .. } => {
                format!("move a token of the named colour {colour} (the colour is locked, R5.6)")
            }
            DecisionKind::Reaction { .. } => "react or pass".to_string(),
            DecisionKind::Pin { .. } => "choose a space to pin on".to_string(),
            DecisionKind::Action { ask, .. } => crate::game::wording::ask(&ask),
            DecisionKind::Chance { what, .. } => crate::game::wording::chance(what).to_string(),
        };
        let mut reason = match choice {
            Choice::Play { card, part } if card.index() < rules.cards.len() => {
                let c = rules.card(card);
                if !self.hands.iter().any(|h| h.contains(&card)) {
                    format!("`{}` is not in hand", c.name)
                } else if part == Part::Action && c.is_reaction() {
                    format!("`{}` is a reaction card: its action is only used in answer to the opponent (R5.12)", c.name)
                } else if part == Part::Action {
                    format!("`{}`'s action part cannot be used now (requirement not met or forbidden this round, R5.11)", c.name)
                } else {
                    format!("`{}` cannot be played now", c.name)
                }
            }
            _ => format!("{choice:?} is not one of the {} options", options.len()),
        };
        reason = format!("{who} must {what}: {reason}");
        reason
    }
}

impl<O: Observer> Ctx<'_, O> {
    /// Applies a choice to the top frame, then runs to the next decision.
    pub(crate) fn take(&mut self, choice: Choice) -> Result<(), PlayError> {
        self.choose(choice)?;
        self.advance()
    }

    /// Steps until a decision with more than one option, or the end.
    pub(crate) fn advance(&mut self) -> Result<(), PlayError> {
        // Room for a turn's options at once (one allocation, not a few as
        // the list grew).
        let mut buf = Vec::with_capacity(32);
        self.advance_to(&mut buf).map(|_| ())
    }

    /// Steps until a decision with more than one option, or the end; leaves
    /// that decision's options in `buf` and returns who takes it (`None`,
    /// and `buf` empty, when the game is over).
    pub(crate) fn advance_to(&mut self, buf: &mut Vec<Choice>) -> Result<Option<Actor>, PlayError> {
        for _ in 0..MAX_AUTOMATIC_STEPS {
            if self.s.outcome.is_some() {
                self.s.phase = Phase::Over;
                buf.clear();
                return Ok(None);
            }
            buf.clear();
            let actor = match self.step(buf)? {
                Progress::Continue => continue,
                Progress::Decide => {
                    buf.clear();
                    self.s.options_into(self.r, buf)
                }
                Progress::Ready(actor) => actor,
            };
            match buf.len() {
                0 => return Err(self.no_options()),
                1 => {
                    self.o.forced(self.s, actor, buf[0]);
                    self.choose(buf[0])?
                }
                _ => return Ok(Some(actor)),
            }
        }
        Err(self.stuck())
    }

    /// The engine's error at a decision with no options (a bug).
    #[cold]
    fn no_options(&self) -> PlayError {
        PlayError::internal(format!(
            "a decision with no options at {:?}",
            self.s.stack.last()
        ))
    }

    /// The error of a game that went `MAX_AUTOMATIC_STEPS` steps without a
    /// decision.
    #[cold]
    fn stuck(&self) -> PlayError {
        PlayError::stuck(format!(
            "the game went {MAX_AUTOMATIC_STEPS} steps (to round {}) without anyone having a decision to take: no player can ever act (are there no cards left to draw?)",
            self.s.round
        ))
    }

    /// One step of the top frame. `buf` is empty; a step that stops at a
    /// decision may list its options there and say so (`Progress::Ready`).
    fn step(&mut self, buf: &mut Vec<Choice>) -> Result<Progress, PlayError> {
        // The top frame is read once here and handed to its step (a play
        // only by its stage: see `step_play`).
        match self.s.stack.last() {
            None => Ok(self.step_idle(buf)),
            Some(&Frame::Setup {
                dealt,
                cards_dealt,
                evidence_left,
            }) => Ok(self.step_setup(dealt, cards_dealt, evidence_left)),
            Some(Frame::Play(p)) => self.step_play(p.stage, buf),
            Some(Frame::Run(_)) => self.step_run(buf),
            Some(&Frame::Pin { token, pinner }) => Ok(self.step_pin(token, pinner, buf)),
            Some(&Frame::Evaluation { step }) => self.step_evaluation(step),
        }
    }

    fn choose(&mut self, choice: Choice) -> Result<(), PlayError> {
        match self.s.stack.last() {
            None => self.choose_idle(choice),
            Some(Frame::Setup { .. }) => self.choose_setup(choice),
            Some(Frame::Play(p)) => self.choose_play(p.stage, choice),
            Some(Frame::Run(_)) => self.choose_run(choice),
            Some(&Frame::Pin { token, pinner }) => self.choose_pin(token, pinner, choice),
            Some(Frame::Evaluation { .. }) => {
                Err(PlayError::internal("the evaluation takes no decision"))
            }
        }
    }
}

/// Appends a `Choice::Space` for each space of `spaces`, in ascending
/// order. Room is made once for them all and the set's words are walked
/// in a plain loop: extending the list from the set's iterator pushed one
/// space at a time through the general `extend` (about 3 % of a random
/// game's instructions then, about 2 % now; issue 16).
#[inline]
pub(crate) fn push_spaces(spaces: SpaceSet, out: &mut Vec<Choice>) {
    let n = spaces.len();
    out.reserve(n);
    let spare = &mut out.spare_capacity_mut()[..n];
    let mut written = 0;
    spaces.for_each(|space| {
        spare[written].write(Choice::Space(space));
        written += 1;
    });
    // SAFETY: room for `n` was made above and the set holds `n` spaces,
    // each written to the next slot past the length.
    unsafe { out.set_len(out.len() + written) };
}

impl State {
    /// The options of the pending decision (the game must not be over).
    pub(crate) fn options_into(&self, r: &Rules, out: &mut Vec<Choice>) -> Actor {
        match self.stack.last() {
            None => self.idle_options(r, out),
            Some(&Frame::Setup {
                dealt: false,
                cards_dealt,
                ..
            }) => self.deal_options(r, cards_dealt, out),
            Some(Frame::Setup { .. }) => self.chance_draw_options(r, out),
            Some(Frame::Play(_)) => self.play_options(r, out),
            Some(Frame::Run(_)) => self.run_options(r, out),
            Some(Frame::Pin { token, pinner }) => {
                self.pin_options(r, *token, out);
                Actor::Player(*pinner)
            }
            Some(Frame::Evaluation { .. }) => Actor::Chance,
        }
    }

    /// What the pending decision is about.
    pub fn decision_kind(&self, r: &Rules) -> DecisionKind {
        match self.stack.last() {
            None => DecisionKind::PlayCard,
            Some(Frame::Setup { dealt: false, .. }) => DecisionKind::Chance {
                what: ChanceOf::CardDrawn,
                weights: vec![],
            },
            Some(Frame::Setup { .. }) => self.chance_draw_kind(r),
            Some(Frame::Play(p)) => self.play_kind(p),
            Some(Frame::Run(f)) => self.run_kind(r, f),
            Some(Frame::Pin { token, .. }) => DecisionKind::Pin {
                colours: r.token(*token).colours,
                momentum_symbol: r.token(*token).momentum_symbol,
            },
            Some(Frame::Evaluation { .. }) => DecisionKind::PlayCard,
        }
    }

    /// With explicit deals: the side the deal's next card goes to, after
    /// `cards_dealt` cards (the initiative holder's first, R4.1); `None`
    /// once every card is dealt.
    pub(crate) fn dealing_to(&self, r: &Rules, cards_dealt: u8) -> Option<Side> {
        let n = &r.numbers;
        let holder = self.initiative;
        if cards_dealt < n.hand_size_with_initiative {
            Some(holder)
        } else if cards_dealt < n.hand_size_with_initiative + n.hand_size_without_initiative {
            Some(holder.other())
        } else {
            None
        }
    }

    /// With explicit deals: one outcome per card of the deck the next card
    /// is dealt from, each as likely.
    fn deal_options(&self, r: &Rules, cards_dealt: u8, out: &mut Vec<Choice>) -> Actor {
        if let Some(side) = self.dealing_to(r, cards_dealt) {
            let n = self.decks[side].len();
            out.extend((0..n).map(|i| Choice::Chance(i as u8)));
        }
        Actor::Chance
    }

    /// Who must decide now, if anyone.
    pub fn to_move(&self, r: &Rules) -> Option<Actor> {
        let mut v = Vec::new();
        self.legal(r, &mut v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set of spaces becomes options after the ones already listed, in
    /// ascending order, one for each space (the list's length kept right
    /// by the unchecked write).
    #[test]
    fn spaces_are_appended_as_options_in_order() {
        let mut set = SpaceSet::EMPTY;
        for s in [200u8, 3, 64, 0, 127] {
            set.insert(SpaceId(s));
        }
        let mut out = vec![Choice::Pass];
        push_spaces(set, &mut out);
        push_spaces(SpaceSet::EMPTY, &mut out);
        let want: Vec<Choice> = std::iter::once(Choice::Pass)
            .chain([0u8, 3, 64, 127, 200].map(|s| Choice::Space(SpaceId(s))))
            .collect();
        assert_eq!(out, want);
    }
}
