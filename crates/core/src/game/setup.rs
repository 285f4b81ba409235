//! A position as plain data: where every token, picture and card is, the
//! counters of the round, the generator and the engine's work in progress.
//! Anyone may build one field by field (the scenario loader does, from
//! text); [`State::from_setup`] checks it against the rules (everything in
//! exactly one place, every index in range) and only then makes it a game.
//! [`State::to_setup`] goes back, exactly, so a saved game loads as it was.
//!
//! Unlike [`State`], a `Setup` says each thing once: a token's place is the
//! list it is in (track, board, bag, a pin on the stack; the box otherwise),
//! a card's place likewise (a hand, a deck, a pile, removed, or being played
//! on the stack), so no two fields can disagree.

use crate::game::invariants;
use crate::game::model::*;
use crate::game::program::Forbid;
use crate::game::rules::{Rules, SpaceKind};
use crate::game::state::*;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An evidence token on the research track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrackToken {
    /// The token.
    pub token: TokenId,
    /// Positive on the Editor's side (R1.3).
    pub pos: i8,
    /// Whether it lies face up.
    pub face_up: bool,
    /// The colours it is known to lack, face down (R5.6: the Editor asked
    /// for them in vain while it lay there). Left out when none.
    #[serde(default, skip_serializing_if = "knows_nothing")]
    pub ruled_out: Colours,
}

fn knows_nothing(c: &Colours) -> bool {
    c.is_empty()
}

/// An evidence token pinned on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardToken {
    /// The evidence space it is pinned on.
    pub space: SpaceId,
    /// The token.
    pub token: TokenId,
    /// Face up when the Editor pinned it, face down when Nixon did (R7.6).
    pub face_up: bool,
}

/// A whole position. Lists that are drawn from (`bag`, `decks`) are drawn
/// from the end, as in the game.
/// It is plain data and serializable as it is; `State::from_setup` checks
/// it on the way in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The generator: everything random from here on comes from it.
    pub rng: GameRng,
    /// Random events stop as decisions of chance (the solver's view).
    pub explicit_chance: bool,
    /// With `explicit_chance`: card draws are chance's decisions too.
    #[serde(default)]
    pub explicit_deals: bool,
    /// Counted from 1.
    pub round: u16,
    /// The phase of the round.
    pub phase: Phase,
    /// Who holds the initiative (R7.2).
    pub initiative: Side,
    /// Whose turn it is when no play is in progress.
    pub turn: Side,
    /// Cards each side has played this round (reactions count, R6.1).
    pub turns_played: BySide<u8>,
    /// The initiative token's track position; `None` once gained this round.
    pub initiative_token: Option<i8>,
    /// The momentum token's track position; `None` when not on the track.
    pub momentum_token: Option<i8>,
    /// Momentum tokens left in the supply (R7.4).
    pub momentum_supply: u8,
    /// Momentum tokens on each side's momentum card.
    pub momentum_cards: BySide<u8>,
    /// Momentum tokens out of the game (R7.3).
    pub momentum_removed: u8,
    /// The evidence on the research track, in the order it arrived (its
    /// slots, which choices name).
    pub track: Vec<TrackToken>,
    /// The evidence pinned on the board.
    pub board: Vec<BoardToken>,
    /// The bag, drawn from the end. A token in no list (and held by no
    /// `Pin` frame) is in the box, outside the game.
    pub bag: Vec<TokenId>,
    /// Where each picture is, by `PictureId`: one entry per picture.
    pub pictures: Vec<PicLoc>,
    /// Each side's hand.
    pub hands: BySide<Vec<CardId>>,
    /// Draw decks, drawn from the end.
    pub decks: BySide<Vec<CardId>>,
    /// Each side's discard pile, the latest last.
    pub discards: BySide<Vec<CardId>>,
    /// Cards out of the game.
    pub removed: Vec<CardId>,
    /// Restrictions in force for the rest of the round.
    pub forbidden: Vec<Forbid>,
    /// The engine's work in progress, innermost last: a card in a `Play`
    /// frame is being played, a token in a `Pin` frame waits for its space.
    pub stack: Vec<Frame>,
    /// Set once the game is over.
    pub outcome: Option<Outcome>,
}

/// A problem with a setup: the field it is in (`track[2].pos`,
/// `hands.editor[0]`) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// The field the problem is in, as a path (`track[2].pos`).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for SetupError {}

impl Setup {
    /// An empty table for these rules: round 1 of the cards phase, nothing
    /// placed (every evidence token in the box, every picture in the
    /// supply, no card anywhere, every momentum token in the supply), the
    /// Editor first. Fill in what the position has.
    pub fn empty(r: &Rules, rng: GameRng) -> Setup {
        Setup {
            rng,
            explicit_chance: false,
            explicit_deals: false,
            round: 1,
            phase: Phase::Cards,
            initiative: Side::Editor,
            turn: Side::Editor,
            turns_played: BySide::default(),
            initiative_token: Some(0),
            momentum_token: None,
            momentum_supply: r.numbers.momentum_tokens,
            momentum_cards: BySide::default(),
            momentum_removed: 0,
            track: vec![],
            board: vec![],
            bag: vec![],
            pictures: vec![PicLoc::Supply; r.pictures.len()],
            hands: Default::default(),
            decks: Default::default(),
            discards: Default::default(),
            removed: vec![],
            forbidden: vec![],
            stack: vec![],
            outcome: None,
        }
    }

    /// Shuffles with the setup's own generator (the game's uniform draw),
    /// for whatever a position leaves unordered.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        shuffle(&mut self.rng, items)
    }

    /// Every problem, checked against the rules: indices in range, every
    /// evidence token, picture and player card in at most (cards: exactly)
    /// one place, the momentum tokens all accounted for, pins on matching
    /// slips, frames that point at frames below them.
    pub fn problems(&self, r: &Rules) -> Vec<SetupError> {
        let mut out = Vec::new();
        let mut bad = |field: String, message: String| out.push(SetupError { field, message });
        if self.round == 0 {
            bad("round".into(), "round 0: rounds are counted from 1".into());
        }
        // An MCG multiplies its state by an odd number: an even state loses
        // period, and 0 (or a state the multiplier keeps) gives the same
        // number forever, on which a uniform draw never ends.
        let state = generator_state(&self.rng);
        if state.is_multiple_of(2) {
            bad(
                "rng".into(),
                format!("state {state:x}: a PCG-64 MCG state must be odd"),
            );
        }
        // R8.4: the game is over exactly when it has a winner.
        match (self.phase == Phase::Over, &self.outcome) {
            (true, None) => bad(
                "phase".into(),
                "the game is over with no winner: an ended game has an outcome (R8.4)".into(),
            ),
            (false, Some(_)) => bad(
                "outcome".into(),
                "a winner while the game goes on: a game with an outcome is over (R8.4)".into(),
            ),
            _ => {}
        }
        let len = r.numbers.track_length;
        let on_track = |p: i8| p.abs() < len;
        for (field, p) in [
            ("initiative_token", self.initiative_token),
            ("momentum_token", self.momentum_token),
        ] {
            if let Some(p) = p.filter(|p| !on_track(*p)) {
                bad(
                    field.into(),
                    format!("position {p}: the track's spaces are -{0}..{0}", len - 1),
                );
            }
        }

        // Momentum tokens: all of them, each card within its spaces.
        for side in Side::BOTH {
            let spaces = r.momentum_cards[side].spaces.len();
            if self.momentum_cards[side] as usize > spaces {
                bad(
                    format!("momentum_cards.{}", side.key()),
                    format!(
                        "{} tokens on {side}'s momentum card: it has only {spaces} spaces",
                        self.momentum_cards[side]
                    ),
                );
            }
        }
        let momentum = self.momentum_supply as usize
            + self.momentum_token.is_some() as usize
            + self
                .momentum_cards
                .iter()
                .map(|n| *n as usize)
                .sum::<usize>()
            + self.momentum_removed as usize;
        if momentum != r.numbers.momentum_tokens as usize {
            bad(
                "momentum_supply".into(),
                format!(
                    "{momentum} momentum tokens in all: the game has {}",
                    r.numbers.momentum_tokens
                ),
            );
        }

        // Evidence: each token in at most one place.
        let mut token_at: Vec<Option<String>> = vec![None; r.evidence.len()];
        let mut place_token =
            |bad: &mut dyn FnMut(String, String), t: TokenId, field: String| match token_at
                .get_mut(t.index())
            {
                None => bad(
                    field,
                    format!(
                        "no evidence token {}: the game has {}",
                        t.0,
                        r.evidence.len()
                    ),
                ),
                Some(Some(prev)) => bad(field, format!("evidence token {} is also at {prev}", t.0)),
                Some(free) => {
                    *free = Some(field);
                }
            };
        for (i, t) in self.track.iter().enumerate() {
            place_token(&mut bad, t.token, format!("track[{i}]"));
            if !on_track(t.pos) {
                bad(
                    format!("track[{i}].pos"),
                    format!(
                        "position {}: the track's spaces are -{1}..{1}",
                        t.pos,
                        len - 1
                    ),
                );
            }
            if !t.ruled_out.is_empty() {
                let colours = r.evidence.get(t.token.index()).map(|e| e.colours);
                let why = if t.face_up {
                    Some("a face-up token shows its colours: nothing is ruled out".to_string())
                } else if t.ruled_out.0 & !Colours::ALL.0 != 0 {
                    Some(format!("{:#b} is not a set of colours", t.ruled_out.0))
                } else if colours.is_some_and(|c| c.intersects(t.ruled_out)) {
                    Some("the token has a colour said to be ruled out (R5.6)".to_string())
                } else {
                    None
                };
                if let Some(why) = why {
                    bad(format!("track[{i}].ruled_out"), why);
                }
            }
        }
        let mut space_held: Vec<Option<usize>> = vec![None; r.board.spaces.len()];
        for (i, b) in self.board.iter().enumerate() {
            place_token(&mut bad, b.token, format!("board[{i}]"));
            let field = format!("board[{i}].space");
            match r.board.spaces.get(b.space.index()).map(|sp| sp.kind) {
                None => bad(field, format!("no board space {}", b.space.0)),
                Some(SpaceKind::Evidence(slip)) => {
                    if let Some(j) = space_held[b.space.index()] {
                        bad(field, format!("the space already holds board[{j}]'s token"));
                    } else {
                        space_held[b.space.index()] = Some(i);
                        if r.evidence
                            .get(b.token.index())
                            .is_some_and(|k| !k.colours.contains(slip))
                        {
                            bad(
                                format!("board[{i}].token"),
                                format!("the token cannot be pinned on a {slip} slip (R7.6)"),
                            );
                        }
                    }
                }
                Some(_) => bad(field, "not an evidence space".into()),
            }
        }
        for (i, t) in self.bag.iter().enumerate() {
            place_token(&mut bad, *t, format!("bag[{i}]"));
        }

        // Pictures: one place each, which the list's shape guarantees.
        if self.pictures.len() != r.pictures.len() {
            bad(
                "pictures".into(),
                format!(
                    "{} pictures listed: the game has {}",
                    self.pictures.len(),
                    r.pictures.len()
                ),
            );
        }

        // Player cards: each in exactly one place, a side's piles its own.
        let mut card_at: Vec<Option<String>> = vec![None; r.cards.len()];
        let mut place_card =
            |bad: &mut dyn FnMut(String, String), c: CardId, field: String, owner: Option<Side>| {
                match card_at.get_mut(c.index()) {
                    None => bad(
                        field,
                        format!("no card {}: the game has {}", c.0, r.cards.len()),
                    ),
                    Some(Some(prev)) => {
                        bad(field, format!("card `{}` is also at {prev}", r.card(c).id))
                    }
                    Some(free) => {
                        if let Some(side) = owner.filter(|s| *s != r.card(c).side) {
                            bad(
                                field.clone(),
                                format!("`{}` is not {side}'s card", r.card(c).id),
                            );
                        }
                        *free = Some(field);
                    }
                }
            };
        for side in Side::BOTH {
            let key = side.key();
            for (name, list) in [
                ("hands", &self.hands[side]),
                ("decks", &self.decks[side]),
                ("discards", &self.discards[side]),
            ] {
                for (i, c) in list.iter().enumerate() {
                    place_card(&mut bad, *c, format!("{name}.{key}[{i}]"), Some(side));
                }
            }
        }
        for (i, c) in self.removed.iter().enumerate() {
            place_card(&mut bad, *c, format!("removed[{i}]"), None);
        }

        // The stack: cards being played, tokens waiting for a space, and
        // references that stay inside the game and point below.
        let in_range_card = |c: CardId| c.index() < r.cards.len();
        let is_play_below = |at: usize, i: u8| {
            (i as usize) < at && matches!(self.stack[i as usize], Frame::Play(_))
        };
        for (k, f) in self.stack.iter().enumerate() {
            let at = format!("stack[{k}]");
            match f {
                Frame::Setup { .. } | Frame::Evaluation { .. } => {}
                Frame::Pin { token, .. } => place_token(&mut bad, *token, format!("{at}.token")),
                Frame::Play(p) => {
                    place_card(&mut bad, p.card, format!("{at}.card"), None);
                    if let Some(i) = p.reacting_to.filter(|i| !is_play_below(k, *i)) {
                        bad(
                            format!("{at}.reacting_to"),
                            format!("stack[{i}] is not a play below this one"),
                        );
                    }
                    if let Some(Moving::Evidence(t)) = p.target {
                        if t.index() >= r.evidence.len() {
                            bad(format!("{at}.target"), format!("no evidence token {}", t.0));
                        }
                    }
                }
                Frame::Run(run) => {
                    match &run.prog() {
                        ProgRef::Card(c) if !in_range_card(*c) => {
                            bad(format!("{at}.prog"), format!("no card {}", c.0))
                        }
                        ProgRef::Space(side, i)
                            if *i as usize >= r.momentum_cards[*side].spaces.len() =>
                        {
                            bad(
                                format!("{at}.prog"),
                                format!("{side}'s momentum card has no space {i}"),
                            )
                        }
                        _ => {}
                    }
                    for (field, c) in [("card", run.card), ("chosen", run.chosen)] {
                        if let Some(c) = c.filter(|c| !in_range_card(*c)) {
                            bad(format!("{at}.{field}"), format!("no card {}", c.0));
                        }
                    }
                    for (j, t) in run.picked.iter().enumerate() {
                        if t.index() >= r.evidence.len() {
                            bad(
                                format!("{at}.picked[{j}]"),
                                format!("no evidence token {}", t.0),
                            );
                        }
                    }
                    if let Some(i) = run.play.filter(|i| !is_play_below(k, *i)) {
                        bad(
                            format!("{at}.play"),
                            format!("stack[{i}] is not a play below this one"),
                        );
                    }
                }
            }
        }
        if let Some(c) = card_at.iter().position(Option::is_none) {
            bad(
                "cards".into(),
                format!(
                    "card `{}` is nowhere: every card is in a hand, a deck, a discard pile, removed or being played",
                    r.cards[c].id
                ),
            );
        }
        out
    }
}

impl State {
    /// The game a setup describes, once [`Setup::problems`] finds nothing
    /// wrong (then every problem is returned, none is fixed silently).
    pub fn from_setup(r: &Rules, setup: Setup) -> Result<State, Vec<SetupError>> {
        let problems = setup.problems(r);
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut evidence: crate::game::inline_list::InlineList<EvLoc, 36> =
            r.evidence.iter().map(|_| EvLoc::Reserve).collect();
        for t in &setup.track {
            evidence[t.token.index()] = EvLoc::Track {
                pos: t.pos,
                face_up: t.face_up,
                ruled_out: t.ruled_out,
            };
        }
        for b in &setup.board {
            evidence[b.token.index()] = EvLoc::Board {
                space: b.space,
                face_up: b.face_up,
            };
        }
        for t in &setup.bag {
            evidence[t.index()] = EvLoc::Bag;
        }
        for f in &setup.stack {
            if let Frame::Pin { token, .. } = f {
                evidence[token.index()] = EvLoc::Held;
            }
        }
        let (board_taken, board_face_up) = State::board_sets(&evidence);
        let track_face_down = State::track_face_down_of(&evidence);
        let state = State {
            rng: setup.rng,
            explicit_chance: setup.explicit_chance || setup.explicit_deals,
            explicit_deals: setup.explicit_deals,
            round: setup.round,
            phase: setup.phase,
            initiative: setup.initiative,
            initiative_token: setup.initiative_token,
            momentum_token: setup.momentum_token,
            momentum_supply: setup.momentum_supply,
            momentum_cards: setup.momentum_cards,
            momentum_removed: setup.momentum_removed,
            evidence,
            board_taken,
            board_face_up,
            track_face_down,
            track: setup.track.iter().map(|t| t.token).collect(),
            bag: setup.bag.into_iter().collect(),
            pictures_in_supply: State::supply_mask(&setup.pictures),
            pictures: setup.pictures.into_iter().collect(),
            hands: setup.hands.map(|v| v.into_iter().collect()),
            decks: setup.decks.map(|v| v.into_iter().collect()),
            discards: setup.discards.map(|v| v.into_iter().collect()),
            removed: setup.removed.into_iter().collect(),
            turn: setup.turn,
            turns_played: setup.turns_played,
            forbidden: setup.forbidden.into_iter().collect(),
            stack: setup.stack.into_iter().collect(),
            outcome: setup.outcome,
        };
        // The checks above imply conservation; should they ever miss a
        // case, the game is refused rather than played in a broken state.
        match invariants::conservation(r, &state) {
            Ok(()) => Ok(state),
            Err(e) => Err(vec![SetupError {
                field: "position".into(),
                message: e,
            }]),
        }
    }

    /// The position as a setup: `State::from_setup(r, s.to_setup())` gives
    /// back an equal state.
    pub fn to_setup(&self) -> Setup {
        Setup {
            rng: self.rng.clone(),
            explicit_chance: self.explicit_chance,
            explicit_deals: self.explicit_deals,
            round: self.round,
            phase: self.phase,
            initiative: self.initiative,
            turn: self.turn,
            turns_played: self.turns_played,
            initiative_token: self.initiative_token,
            momentum_token: self.momentum_token,
            momentum_supply: self.momentum_supply,
            momentum_cards: self.momentum_cards,
            momentum_removed: self.momentum_removed,
            track: self
                .track
                .iter()
                .filter_map(|t| {
                    let (pos, face_up) = self.on_track(*t)?;
                    Some(TrackToken {
                        token: *t,
                        pos,
                        face_up,
                        ruled_out: self.ruled_out(*t),
                    })
                })
                .collect(),
            board: self
                .evidence
                .iter()
                .enumerate()
                .filter_map(|(i, l)| match *l {
                    EvLoc::Board { space, face_up } => Some(BoardToken {
                        space,
                        token: TokenId(i as u8),
                        face_up,
                    }),
                    _ => None,
                })
                .collect(),
            bag: self.bag.to_vec(),
            pictures: self.pictures.to_vec(),
            hands: BySide::from_fn(|side| self.hands[side].to_vec()),
            decks: BySide::from_fn(|side| self.decks[side].to_vec()),
            discards: BySide::from_fn(|side| self.discards[side].to_vec()),
            removed: self.removed.to_vec(),
            forbidden: self.forbidden.to_vec(),
            stack: self.stack.to_vec(),
            outcome: self.outcome,
        }
    }
}
