//! What one seat is sent: the table as that player sees it, built from the
//! seat's `View` only (never from the `State`), the decision if it is
//! theirs with its options in words, and the narration they were told.
//!
//! The one place a `State` is consulted is the wording of the seat's own
//! options (`format_choice`, `describe_choice` with the seat as viewer),
//! which the terminal shows the same player; options name track evidence by
//! slot, never by token, so they carry nothing the seat may not know.
//! Where each option is chosen on the table, and what it would change
//! there, comes from the seat's `View` and the decision too (`targets.rs`).

use super::session::{Mode, Move, Session};
use super::targets::{token_name, Target, Targeted, Targeting};
use crate::app::server::cards::{placeholders, Placeholder};
use crate::game::engine::notation::{describe_choice, format_choice};
use crate::game::engine::{Choice, DecisionKind};
use crate::game::model::*;
use crate::game::rules::Rules;
use crate::game::state::PicLoc;
use crate::game::view::View;
use serde::Serialize;
use serde_json::value::RawValue;
use std::sync::{Arc, Mutex, Weak};

#[derive(Serialize)]
pub struct SeatView<'a> {
    pub game: String,
    pub seat: Side,
    /// `hotseat`, or the agent the other side is played by.
    pub mode: String,
    pub opponent: Option<String>,
    /// Changes at every choice and undo; send it back with a choice.
    pub step: u64,
    /// The table as this seat sees it.
    #[serde(flatten)]
    pub table: SeatTable,
    pub outcome: Option<OutcomeView>,
    /// The seat's decision, when it is theirs.
    pub decision: Option<DecisionView>,
    /// Whose decision it is, when it is not the seat's.
    pub waiting_for: Option<Side>,
    pub can_undo: bool,
    /// Why undo is refused now (shown on the disabled button).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why_no_undo: Option<String>,
    pub can_save: bool,
    /// The deal's seed, only where a seat may see it: chosen by the player,
    /// or once the game is over (issue 40). A decimal string.
    #[serde(serialize_with = "crate::app::server::numbers::seed_opt::serialize")]
    pub seed: Option<u64>,
    pub log: LogPart,
    /// Only when asked for (`after`): the table after each choice taken
    /// since step `after`, as this seat saw it (`session::Move`), for the
    /// page to play back; the last is the table above.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<&'a [Move]>,
}

/// Everything one seat sees on the table: the open part both players see,
/// its own hand, the piles and counts, the cards in play. Built from the
/// seat's `View` only ([`seat_table`]).
#[derive(Serialize)]
pub struct SeatTable {
    #[serde(flatten)]
    pub open: OpenTable,
    pub hand: Vec<Face>,
    pub hand_sizes: PerSide<usize>,
    pub deck_sizes: PerSide<usize>,
    pub discards: PerSide<Vec<Face>>,
    pub removed: Vec<Face>,
    pub bag: usize,
    pub in_play: Vec<InPlayView>,
    pub held_token: Option<TokenFace>,
}

#[derive(Serialize)]
pub struct PerSide<T> {
    pub editor: T,
    pub nixon: T,
}

fn per_side<T>(f: impl Fn(Side) -> T) -> PerSide<T> {
    PerSide {
        editor: f(Side::Editor),
        nixon: f(Side::Nixon),
    }
}

#[derive(Serialize)]
pub struct Momentum {
    /// Tokens in the general supply.
    pub supply: u8,
    /// On each side's momentum card.
    pub on_card: PerSide<u8>,
    pub removed: u8,
    pub to_win: u8,
}

#[derive(Serialize)]
pub struct TokenFace {
    pub colours: Vec<&'static str>,
    pub symbol: bool,
}

fn colours(c: Colours) -> Vec<&'static str> {
    c.iter().map(Colour::name).collect()
}

#[derive(Serialize)]
pub struct TrackToken {
    pub slot: u8,
    pub pos: i8,
    pub face_up: bool,
    /// `None`: face down and hidden from this seat.
    pub kind: Option<TokenFace>,
    /// Face down: the colours the Editor asked for in vain while it lay
    /// there, which everyone knows it lacks (R5.6). Left out when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ruled_out: Vec<&'static str>,
}

#[derive(Serialize)]
pub struct BoardToken {
    pub space: String,
    pub face_up: bool,
    pub kind: TokenFace,
}

#[derive(Serialize)]
pub struct PictureView {
    pub name: String,
    pub full_name: String,
    /// `supply`, `recruited` (face up, the Editor's) or `secured` (Nixon's).
    pub place: &'static str,
    pub space: Option<String>,
}

/// A card as its face shows it.
#[derive(Serialize)]
pub struct CardFace {
    pub id: String,
    pub number: u16,
    pub name: String,
    pub side: Side,
    pub card_type: &'static str,
    pub value: u8,
    pub colours: Vec<&'static str>,
    pub informant: Option<String>,
    pub reaction: bool,
    pub action_text: String,
    pub quote: String,
    /// The fields whose values are placeholders, each with the open
    /// question about it, as the Cards page marks them.
    pub placeholders: Vec<Placeholder>,
}

/// A card's face as the JSON [`CardFace`] serializes to, made once per rule
/// set and shared by every view of every game on it: a seat's view names
/// up to 40 cards, and escaping their texts and quotes anew for each answer
/// was the largest part of the server's time under load (BENCHMARKS.md).
/// The JSON is the same, byte for byte.
#[derive(Clone, Serialize)]
#[serde(transparent)]
pub struct Face(Arc<RawValue>);

/// The faces of every card of one rule set, by `CardId`.
pub struct Faces {
    faces: Vec<Face>,
}

impl Faces {
    /// The faces of `rules`' cards: built on the first call for a rule set,
    /// then shared for as long as the rule set is the last one asked for
    /// (the server plays one rule set at a time; the workbench's reload
    /// makes a new one).
    pub fn of(rules: &Arc<Rules>) -> Arc<Faces> {
        static LAST: Mutex<Option<(Weak<Rules>, Arc<Faces>)>> = Mutex::new(None);
        let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((weak, faces)) = last.as_ref() {
            // A live weak pointer to this very allocation is this rule set:
            // the caller holds it, so its address cannot have been reused.
            if weak.upgrade().is_some_and(|r| Arc::ptr_eq(&r, rules)) {
                return Arc::clone(faces);
            }
        }
        let faces = Arc::new(Faces {
            faces: (0..rules.cards.len())
                .map(|i| {
                    let json = serde_json::to_string(&card_face(rules, CardId(i as u8)))
                        .expect("a card face is plain data");
                    Face(Arc::from(
                        RawValue::from_string(json).expect("serde_json wrote JSON"),
                    ))
                })
                .collect(),
        });
        *last = Some((Arc::downgrade(rules), Arc::clone(&faces)));
        faces
    }

    pub fn get(&self, c: CardId) -> Face {
        self.faces[c.index()].clone()
    }
}

pub fn card_face(r: &Rules, c: CardId) -> CardFace {
    let card = r.card(c);
    CardFace {
        id: card.id.clone(),
        number: card.number,
        name: card.name.clone(),
        side: card.side,
        card_type: card.card_type.name(),
        value: card.value,
        colours: colours(card.colours),
        informant: card.informant.map(|p| r.pictures[p.index()].name.clone()),
        reaction: card.is_reaction(),
        action_text: card.action_text.clone(),
        quote: card.quote.clone(),
        placeholders: placeholders(&card.placeholders),
    }
}

#[derive(Serialize)]
pub struct InPlayView {
    pub card: Face,
    pub player: Side,
    pub part: Option<Part>,
    pub cancelled: bool,
}

#[derive(Serialize)]
pub struct OutcomeView {
    pub winner: Side,
    pub cause: &'static str,
    pub text: String,
}

#[derive(Serialize)]
pub struct DecisionView {
    /// What the decision is about, in a sentence.
    pub prompt: String,
    pub options: Vec<OptionView>,
}

/// One legal option: its index (what a click sends), its notation (what
/// the text box takes), its words, and what it points at on the table.
#[derive(Serialize)]
pub struct OptionView {
    pub index: usize,
    pub notation: String,
    pub text: String,
    /// `play`, `token`, `ask`, `space`, `picture`, `card`, `react`, `pass`,
    /// `branch`, `skip`.
    pub kind: &'static str,
    /// The card a `play`, `card` or `react` option names (its id).
    pub card: Option<String>,
    /// `value` or `action`, for `play`.
    pub part: Option<Part>,
    /// `ev3`, `initiative` or `momentum`, for `token`.
    pub token: Option<String>,
    /// The board space's id, for `space`.
    pub space: Option<String>,
    /// The colour asked for, for `ask`; the picture's name, for `picture`.
    pub name: Option<String>,
    /// The drawn things a click on the table chooses this option by
    /// (`targets.rs`); several options may share one (a card's value and
    /// its action), and the page then asks which.
    pub targets: Vec<Target>,
    /// What the option would change on the table, highlighted on hover.
    pub effects: Vec<Target>,
}

#[derive(Serialize)]
pub struct LogPart {
    /// Index of the first line sent: lines before it are the ones the page
    /// already has (after an undo it can be smaller than the page's count).
    pub from: usize,
    pub lines: Vec<String>,
}

/// One option as the pages show it: its notation, its words for `side`,
/// and what it names (a token, a space, a card…) so a page can make that
/// thing clickable. Play and Puzzles both use it.
pub(crate) fn option_view(
    r: &Rules,
    side: Side,
    state: &crate::game::state::State,
    index: usize,
    c: Choice,
) -> OptionView {
    let v = View::new(r, state, side);
    option_view_on(
        &Targeting::new(v, v.decision_kind()),
        r,
        side,
        state,
        index,
        c,
    )
}

/// [`option_view`] with the decision's table already built (once for all
/// of a decision's options).
fn option_view_on(
    targeting: &Targeting<'_>,
    r: &Rules,
    side: Side,
    state: &crate::game::state::State,
    index: usize,
    c: Choice,
) -> OptionView {
    let Targeted { targets, effects } = targeting.of(c);
    let mut o = OptionView {
        index,
        notation: format_choice(r, state, c),
        text: describe_choice(r, state, side, c),
        kind: "",
        card: None,
        part: None,
        token: None,
        space: None,
        name: None,
        targets,
        effects,
    };
    match c {
        Choice::Play { card, part } => {
            o.kind = "play";
            o.card = Some(r.card(card).id.clone());
            o.part = Some(part);
        }
        Choice::Token(t) => {
            o.kind = "token";
            o.token = Some(token_name(t));
        }
        Choice::Ask(colour) => {
            o.kind = "ask";
            o.name = Some(colour.name().to_string());
        }
        Choice::Space(sp) => {
            o.kind = "space";
            o.space = Some(r.board.spaces[sp.index()].id.clone());
        }
        Choice::Picture(p) => {
            o.kind = "picture";
            o.name = Some(r.pictures[p.index()].name.clone());
        }
        Choice::Card(card) => {
            o.kind = "card";
            o.card = Some(r.card(card).id.clone());
        }
        Choice::React(card) => {
            o.kind = "react";
            o.card = Some(r.card(card).id.clone());
        }
        Choice::Pass => o.kind = "pass",
        Choice::Branch(_) => o.kind = "branch",
        Choice::Skip => o.kind = "skip",
        Choice::Chance(_) => o.kind = "chance",
    }
    o
}

/// What both players see of the table, as a `View` shows it: counters,
/// momentum, the track, the board and the pictures. A seat's view and the
/// whole table of Replay and Puzzles (`table.rs`) carry it flattened, so
/// `board.js` draws both from the same fields.
#[derive(Serialize)]
pub struct OpenTable {
    pub round: u16,
    pub phase: &'static str,
    pub turn: Side,
    pub initiative: Side,
    pub initiative_token: Option<i8>,
    pub momentum_token: Option<i8>,
    pub track_length: i8,
    pub momentum: Momentum,
    pub track: Vec<TrackToken>,
    pub board: Vec<BoardToken>,
    pub pictures: Vec<PictureView>,
    pub connected_informants: usize,
    pub informants_to_connect: u8,
}

/// The open part of the table as `v`'s viewer sees it.
pub(crate) fn open_table(r: &Rules, v: &View) -> OpenTable {
    OpenTable {
        round: v.round(),
        phase: crate::app::terminal::phase_name(v.phase()),
        turn: v.turn(),
        initiative: v.initiative(),
        initiative_token: v.initiative_token(),
        momentum_token: v.momentum_token(),
        track_length: r.numbers.track_length,
        momentum: momentum(r, v),
        track: track(v),
        board: board(r, v),
        pictures: pictures(r, v),
        connected_informants: v.connected_informants(),
        informants_to_connect: r.numbers.informants_to_connect,
    }
}

// Pieces of the open table, as `v`'s viewer sees it.

/// The momentum supply, both cards and what wins.
fn momentum(r: &Rules, v: &View) -> Momentum {
    Momentum {
        supply: v.momentum_supply(),
        on_card: per_side(|side| v.momentum_on_card(side)),
        removed: v.momentum_removed(),
        to_win: r.numbers.momentum_to_win,
    }
}

/// The research track's evidence; a kind only where the viewer knows it.
fn track(v: &View) -> Vec<TrackToken> {
    v.track()
        .into_iter()
        .map(|t| TrackToken {
            slot: t.slot,
            pos: t.pos,
            face_up: t.face_up,
            kind: t.colours.zip(t.momentum_symbol).map(|(c, m)| TokenFace {
                colours: colours(c),
                symbol: m,
            }),
            ruled_out: colours(t.ruled_out),
        })
        .collect()
}

fn space_name(r: &Rules, sp: SpaceId) -> String {
    r.board.spaces[sp.index()].id.clone()
}

/// The evidence pinned on the board.
fn board(r: &Rules, v: &View) -> Vec<BoardToken> {
    v.board()
        .into_iter()
        .map(|t| BoardToken {
            space: space_name(r, t.space),
            face_up: t.face_up,
            kind: TokenFace {
                colours: colours(t.colours),
                symbol: t.momentum_symbol,
            },
        })
        .collect()
}

/// Every picture: in the supply, or recruited or secured on its space.
fn pictures(r: &Rules, v: &View) -> Vec<PictureView> {
    v.pictures()
        .iter()
        .enumerate()
        .map(|(i, loc)| {
            let p = &r.pictures[i];
            let space = r.board.informant_spaces.get(i).map(|sp| space_name(r, *sp));
            let (place, space) = match loc {
                PicLoc::Supply => ("supply", None),
                PicLoc::Pinned { face_up: true } => ("recruited", space),
                PicLoc::Pinned { face_up: false } => ("secured", space),
            };
            PictureView {
                name: p.name.clone(),
                full_name: p.full_name.clone(),
                place,
                space,
            }
        })
        .collect()
}

/// The table as `v`'s viewer sees it.
pub(crate) fn seat_table(r: &Rules, faces: &Faces, v: &View) -> SeatTable {
    let face = |c: &CardId| faces.get(*c);
    SeatTable {
        open: open_table(r, v),
        hand: v.my_hand().iter().map(face).collect(),
        hand_sizes: per_side(|side| v.hand_size(side)),
        deck_sizes: per_side(|side| v.deck_size(side)),
        discards: per_side(|side| v.discard(side).iter().map(face).collect()),
        removed: v.removed().iter().map(face).collect(),
        bag: v.bag_size(),
        in_play: v
            .in_play()
            .into_iter()
            .map(|p| InPlayView {
                card: face(&p.card),
                player: p.player,
                part: p.part,
                cancelled: p.cancelled,
            })
            .collect(),
        held_token: v.held_token().map(|(c, m)| TokenFace {
            colours: colours(c),
            symbol: m,
        }),
    }
}

/// The seat's view of session `s` (game id `game`), with the narration
/// from line `since` on, and the moves after step `after` if asked.
pub fn seat_view<'a>(
    game: &str,
    s: &'a Session,
    seat: Side,
    since: usize,
    after: Option<u64>,
) -> SeatView<'a> {
    let r: &Rules = &s.rules;
    let faces = Faces::of(&s.rules);
    let v = View::new(r, &s.game.state, seat);
    let decision = s.decision(seat).map(|d| {
        let mut prompt = crate::app::terminal::decision_text(r, seat, &d.kind);
        if let (DecisionKind::Reaction { against }, [Choice::Pass]) = (&d.kind, &d.options[..]) {
            // A hotseat pause (`game::Pause`): a window always offers a
            // card to react with.
            prompt = format!("{prompt} {}", crate::app::terminal::pause_text(r, *against));
        }
        let targeting = Targeting::new(v, d.kind);
        DecisionView {
            prompt,
            options: d
                .options
                .iter()
                .enumerate()
                .map(|(i, c)| option_view_on(&targeting, r, v.side(), &s.game.state, i, *c))
                .collect(),
        }
    });
    let waiting_for = if decision.is_none() && v.outcome().is_none() {
        s.to_move()
    } else {
        None
    };
    let narration = s.game.record.narration.lines(seat);
    let from = since.min(narration.len());
    let (mode, opponent) = match &s.mode {
        Mode::Hotseat => ("hotseat".to_string(), None),
        Mode::Against { ai, .. } => (format!("against {ai}"), Some(ai.to_string())),
    };
    SeatView {
        game: game.to_string(),
        seat,
        mode,
        opponent,
        step: s.step,
        table: seat_table(r, &faces, &v),
        outcome: v.outcome().map(|o| OutcomeView {
            winner: o.winner,
            cause: o.cause.key(),
            text: format!("{} wins — {}.", o.winner, o.cause.describe()),
        }),
        decision,
        waiting_for,
        can_undo: s.can_undo(seat),
        why_no_undo: s.why_no_undo(seat),
        can_save: s.can_save(),
        seed: s.shown_seed(),
        log: LogPart {
            from,
            lines: narration[from..].to_vec(),
        },
        moves: after.map(|step| s.moves_after(seat, step)),
    }
}
