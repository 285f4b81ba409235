//! What one player sees, as OpenSpiel asks for it: a text and a tensor,
//! both made from the engine's `View` of that player and nothing else, so
//! they hide exactly what the rules hide (the opponent's hand, every deck's
//! order, the bag, and for the Editor the face-down tokens on the track).

use watergate_core::game::engine::{Ask, DecisionKind};
use watergate_core::game::model::{Colours, Part, Side};
use watergate_core::game::program::{Amount, EvidenceFilter, Face, TokenSelector};
use watergate_core::game::rules::Rules;
use watergate_core::game::state::{Phase, PicLoc};
use watergate_core::game::view::View;
use watergate_formats::scenario::describe_kind;

/// The tensor's layout for one set of rules: its parts, in order, each
/// with its length, which the rules fix (`Game.tensor_layout` in Python,
/// the observer's `dict`, and the README's table, which a test holds to
/// this list).
pub struct TensorShape {
    cards: usize,
    tokens: usize,
    spaces: usize,
    pictures: usize,
    /// Track positions, from `-(length - 1)` to `length - 1`.
    positions: usize,
    parts: Vec<(&'static str, usize)>,
    len: usize,
}

/// The parts that hold the decision the viewer takes now (all zeros when
/// the decision is not theirs).
const DECISION_PARTS: [&str; 11] = [
    "decision_kind",
    "decision_card",
    "decision_colour",
    "ask",
    "ask_tokens",
    "ask_face",
    "ask_colour",
    "ask_steps",
    "ask_count",
    "ask_space",
    "ask_branches",
];

impl TensorShape {
    pub fn of(r: &Rules) -> TensorShape {
        let mut shape = TensorShape {
            cards: r.cards.len(),
            tokens: r.evidence.len(),
            spaces: r.board.spaces.len(),
            pictures: r.pictures.len(),
            positions: (2 * r.numbers.track_length.max(1) - 1) as usize,
            parts: Vec::new(),
            len: 0,
        };
        shape.parts = shape.layout();
        shape.len = shape.parts.iter().map(|(_, n)| n).sum();
        shape
    }

    /// The parts in the order `tensor` writes them, each with its length
    /// (README: "The observation tensor" says what each holds): whose view,
    /// the round, the phase, the initiative's holder and the turn, the
    /// initiative and momentum tokens (a position or off the track), the
    /// momentum tokens (supply, on each side's card, removed), turns
    /// played, hand, deck and discard sizes, the bag, the connected
    /// informants, the cards in the viewer's hand, in each discard pile and
    /// removed, the cards on the table and of them those played for their
    /// value, for their action and cancelled, each track slot
    /// (`slot_len`), each board space (taken, face up, colours, symbol),
    /// each picture (supply, face up, face down), a token waiting to be
    /// pinned, and the decision the viewer takes now (see `decision`).
    fn layout(&self) -> Vec<(&'static str, usize)> {
        let mut parts = vec![
            ("viewer", 2),
            ("round", 1),
            ("phase", 4),
            ("initiative_holder", 2),
            ("turn", 2),
            ("initiative_token", self.positions + 1),
            ("momentum_token", self.positions + 1),
            ("momentum_tokens", 4),
            ("turns_played", 2),
            ("pile_sizes", 6),
            ("bag", 1),
            ("connected_informants", 1),
            ("hand", self.cards),
            ("editor_discard", self.cards),
            ("nixon_discard", self.cards),
            ("removed", self.cards),
            ("table", self.cards),
            ("table_value", self.cards),
            ("table_action", self.cards),
            ("table_cancelled", self.cards),
            ("track", self.tokens * self.slot_len()),
            ("board", self.spaces * 6),
            ("pictures", self.pictures * 3),
            ("held_token", 5),
        ];
        for name in DECISION_PARTS {
            parts.push((name, self.decision_part_len(name)));
        }
        parts
    }

    fn decision_part_len(&self, name: &str) -> usize {
        match name {
            "decision_kind" => DECISION_KINDS,
            "decision_card" => self.cards,
            "decision_colour" => 3,
            "ask" => ASKS,
            "ask_tokens" => 4,
            "ask_face" => 3,
            "ask_colour" => 3,
            "ask_steps" => 2,
            "ask_count" => 3,
            "ask_space" => 1,
            "ask_branches" => 1,
            _ => unreachable!("a decision part: {name}"),
        }
    }

    /// The parts, in order, with their lengths.
    pub fn parts(&self) -> &[(&'static str, usize)] {
        &self.parts
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// One track slot: present, position (one-hot, or off the track), face
    /// up, colours known, the colours, the momentum symbol, and the colours
    /// a face-down token is known to lack (R5.6: asked for in vain).
    fn slot_len(&self) -> usize {
        1 + (self.positions + 1) + 1 + 1 + 3 + 1 + 3
    }

    /// The view as numbers (one-hot where a value is one of a few, counts
    /// scaled to about 0..1).
    pub fn tensor(&self, v: &View) -> Vec<f32> {
        let mut t = Tensor {
            out: Vec::with_capacity(self.len),
            parts: &self.parts,
            next: 0,
            start: 0,
        };
        let r = v.rules();
        t.side(v.side());
        t.end("viewer");
        t.push(v.round() as f32 / 10.0);
        t.end("round");
        let phase = [Phase::Initial, Phase::Cards, Phase::Evaluation, Phase::Over];
        for p in phase {
            t.flag(v.phase() == p);
        }
        t.end("phase");
        t.side(v.initiative());
        t.end("initiative_holder");
        t.side(v.turn());
        t.end("turn");
        t.position(v.initiative_token(), self.positions);
        t.end("initiative_token");
        t.position(v.momentum_token(), self.positions);
        t.end("momentum_token");
        let momentum = r.numbers.momentum_tokens.max(1) as f32;
        t.push(v.momentum_supply() as f32 / momentum);
        for side in Side::BOTH {
            t.push(v.momentum_on_card(side) as f32 / momentum);
        }
        t.push(v.momentum_removed() as f32 / momentum);
        t.end("momentum_tokens");
        for side in Side::BOTH {
            t.push(v.turns_played(side) as f32 / 10.0);
        }
        t.end("turns_played");
        let cards = self.cards.max(1) as f32;
        for side in Side::BOTH {
            t.push(v.hand_size(side) as f32 / cards);
            t.push(v.deck_size(side) as f32 / cards);
            t.push(v.discard(side).len() as f32 / cards);
        }
        t.end("pile_sizes");
        t.push(v.bag_size() as f32 / self.tokens.max(1) as f32);
        t.end("bag");
        t.push(v.connected_informants() as f32 / self.pictures.max(1) as f32);
        t.end("connected_informants");
        t.cards(v.my_hand(), self.cards);
        t.end("hand");
        t.cards(v.discard(Side::Editor), self.cards);
        t.end("editor_discard");
        t.cards(v.discard(Side::Nixon), self.cards);
        t.end("nixon_discard");
        t.cards(v.removed(), self.cards);
        t.end("removed");
        // How a card on the table is played, not only which: a card that
        // must be played at once is on the table both while its part is
        // chosen and while its value's target is, two decisions with
        // different options that the ids alone could not tell apart.
        let table = v.in_play();
        let on_table: Vec<_> = table.iter().map(|p| p.card).collect();
        t.cards(&on_table, self.cards);
        t.end("table");
        for (part, name) in [
            (Some(Part::Value), "table_value"),
            (Some(Part::Action), "table_action"),
        ] {
            let played: Vec<_> = table
                .iter()
                .filter(|p| p.part == part)
                .map(|p| p.card)
                .collect();
            t.cards(&played, self.cards);
            t.end(name);
        }
        let cancelled: Vec<_> = table
            .iter()
            .filter(|p| p.cancelled)
            .map(|p| p.card)
            .collect();
        t.cards(&cancelled, self.cards);
        t.end("table_cancelled");
        let track = v.track();
        for slot in 0..self.tokens {
            match track.iter().find(|x| x.slot as usize == slot) {
                None => t.zeros(self.slot_len()),
                Some(x) => {
                    t.flag(true);
                    t.position(Some(x.pos), self.positions);
                    t.flag(x.face_up);
                    t.flag(x.colours.is_some());
                    t.colours(x.colours.unwrap_or(Colours::NONE));
                    t.flag(x.momentum_symbol == Some(true));
                    t.colours(x.ruled_out);
                }
            }
        }
        t.end("track");
        let board = v.board();
        for space in 0..self.spaces {
            match board.iter().find(|b| b.space.index() == space) {
                None => t.zeros(6),
                Some(b) => {
                    t.flag(true);
                    t.flag(b.face_up);
                    t.colours(b.colours);
                    t.flag(b.momentum_symbol);
                }
            }
        }
        t.end("board");
        let pictures = v.pictures();
        for p in 0..self.pictures {
            let at = pictures.get(p).copied();
            t.flag(at == Some(PicLoc::Supply));
            t.flag(at == Some(PicLoc::Pinned { face_up: true }));
            t.flag(at == Some(PicLoc::Pinned { face_up: false }));
        }
        t.end("pictures");
        match v.held_token() {
            None => t.zeros(5),
            Some((colours, symbol)) => {
                t.flag(true);
                t.colours(colours);
                t.flag(symbol);
            }
        }
        t.end("held_token");
        self.decision(&mut t, v);
        assert_eq!(
            t.next,
            self.parts.len(),
            "the tensor's layout: every part written"
        );
        t.out
    }

    /// The decision the viewer takes now (zeros when it is not theirs):
    /// its kind, the card and the colour it is about, and inside a card's
    /// action what the instruction asks for (`ask`) and with what: which
    /// tokens it may pick, how far a move takes them, how many it moves
    /// and has moved, the space a token goes on, how many branches a
    /// choice has. Without it, two decisions had the same tensor but
    /// different options: a value play's target before and after a vain
    /// ask (R5.6), a card chosen by The system works and then that card's
    /// own choice, and two moves of one card (The Watergate complex: a
    /// face-down token 1 step, or a face-up token 2 steps).
    fn decision(&self, t: &mut Tensor, v: &View) {
        let mut options = Vec::new();
        if !v.legal(&mut options) {
            for name in DECISION_PARTS {
                t.zeros(self.decision_part_len(name));
                t.end(name);
            }
            return;
        }
        let kind = v.decision_kind();
        let (index, card, colour, ask) = match &kind {
            DecisionKind::PlayCard => (0, None, None, None),
            DecisionKind::ChoosePart { card } => (1, Some(*card), None, None),
            DecisionKind::ValueTarget { card } => (2, Some(*card), None, None),
            DecisionKind::Reveal { colour } => (3, None, Some(*colour), None),
            DecisionKind::LockedTarget { card, colour } => (4, Some(*card), Some(*colour), None),
            DecisionKind::Reaction { against } => (5, Some(*against), None, None),
            DecisionKind::Pin { .. } => (6, None, None, None),
            DecisionKind::Action { card, ask } => (7, *card, None, Some(ask)),
            // Chance decides no player's decision.
            DecisionKind::Chance { .. } => (DECISION_KINDS, None, None, None),
        };
        for i in 0..DECISION_KINDS {
            t.flag(i == index);
        }
        t.end("decision_kind");
        t.cards(card.as_slice(), self.cards);
        t.end("decision_card");
        t.colours(colour.map_or(Colours::NONE, Colours::single));
        t.end("decision_colour");
        let detail = ask.map(AskDetail::of).unwrap_or_default();
        for i in 0..ASKS {
            t.flag(Some(i) == detail.index);
        }
        t.end("ask");
        t.flag(detail.tokens.is_some_and(|s| s.initiative));
        t.flag(detail.tokens.is_some_and(|s| s.momentum));
        t.flag(detail.evidence.is_some());
        t.flag(detail.tokens.is_some_and(|s| s.trigger_token));
        t.end("ask_tokens");
        let face = detail.evidence.map(|f| f.face);
        for f in [Face::Any, Face::Up, Face::Down] {
            t.flag(face == Some(f));
        }
        t.end("ask_face");
        t.colours(
            detail
                .evidence
                .and_then(|f| f.colour)
                .map_or(Colours::NONE, Colours::single),
        );
        t.end("ask_colour");
        t.push(match detail.steps {
            Some(Amount::Fixed(n)) => f32::from(n) / 10.0,
            _ => 0.0,
        });
        t.flag(detail.steps == Some(Amount::TriggerValue));
        t.end("ask_steps");
        t.push(f32::from(detail.count) / 10.0);
        t.push(f32::from(detail.done) / 10.0);
        t.flag(detail.up_to);
        t.end("ask_count");
        t.push(f32::from(detail.space) / 10.0);
        t.end("ask_space");
        t.push(detail.branches as f32 / 10.0);
        t.end("ask_branches");
    }
}

/// The kinds of a player's decision (`DecisionKind` but chance).
const DECISION_KINDS: usize = 8;

/// The kinds of what an instruction of a card's action asks (`Ask`).
const ASKS: usize = 11;

/// What an instruction asks, as the tensor holds it: its place among
/// `ASKS`, and what it asks with (unused fields stay empty).
#[derive(Default)]
struct AskDetail {
    index: Option<usize>,
    /// Which tokens of the track a move or a placing may pick.
    tokens: Option<TokenSelector>,
    /// Which evidence tokens may be picked.
    evidence: Option<EvidenceFilter>,
    steps: Option<Amount>,
    count: u8,
    done: u8,
    up_to: bool,
    space: u8,
    branches: usize,
}

impl AskDetail {
    fn of(a: &Ask) -> AskDetail {
        let (index, mut d) = match a {
            Ask::Move {
                what,
                steps,
                count,
                up_to,
                done,
            } => (
                0,
                AskDetail {
                    tokens: Some(*what),
                    evidence: what.evidence,
                    steps: Some(*steps),
                    count: *count,
                    done: *done,
                    up_to: *up_to,
                    ..AskDetail::default()
                },
            ),
            Ask::Place { what, space } => (
                1,
                AskDetail {
                    tokens: Some(*what),
                    evidence: what.evidence,
                    space: *space,
                    ..AskDetail::default()
                },
            ),
            Ask::TrackToBag { filter } => (2, AskDetail::evidence(*filter)),
            Ask::PinFromTrack { filter } => (3, AskDetail::evidence(*filter)),
            Ask::BoardToBag { filter } => (4, AskDetail::evidence(*filter)),
            Ask::BoardToTrack { filter, space } => (
                5,
                AskDetail {
                    space: *space,
                    ..AskDetail::evidence(*filter)
                },
            ),
            Ask::FlipOnBoard => (6, AskDetail::default()),
            Ask::UnpinPicture => (7, AskDetail::default()),
            Ask::ChooseCard { .. } => (8, AskDetail::default()),
            Ask::Branch { labels, .. } => (
                9,
                AskDetail {
                    branches: labels.len(),
                    ..AskDetail::default()
                },
            ),
            Ask::Continue => (10, AskDetail::default()),
        };
        d.index = Some(index);
        d
    }

    fn evidence(filter: EvidenceFilter) -> AskDetail {
        AskDetail {
            evidence: Some(filter),
            ..AskDetail::default()
        }
    }
}

struct Tensor<'a> {
    out: Vec<f32>,
    /// The layout, and the part to be written next.
    parts: &'a [(&'static str, usize)],
    next: usize,
    /// Where the part to be written next starts.
    start: usize,
}

impl Tensor<'_> {
    /// Ends the part `name`: the next in the layout, and as long as the
    /// layout says (what `Game.tensor_layout` promises is what is written).
    fn end(&mut self, name: &str) {
        let (expected, len) = self.parts[self.next];
        assert_eq!(name, expected, "the tensor's layout: the parts' order");
        self.start += len;
        assert_eq!(
            self.out.len(),
            self.start,
            "the tensor's layout: {name}'s length"
        );
        self.next += 1;
    }

    fn push(&mut self, x: f32) {
        self.out.push(x);
    }

    fn flag(&mut self, on: bool) {
        self.out.push(if on { 1.0 } else { 0.0 });
    }

    fn zeros(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(0.0, n));
    }

    fn side(&mut self, s: Side) {
        self.flag(s == Side::Editor);
        self.flag(s == Side::Nixon);
    }

    /// One-hot over the track's positions, then "not on the track".
    fn position(&mut self, pos: Option<i8>, positions: usize) {
        let half = (positions / 2) as i64;
        let at = pos.map(|p| p as i64 + half);
        for i in 0..positions as i64 {
            self.flag(at == Some(i));
        }
        self.flag(at.is_none());
    }

    fn colours(&mut self, c: Colours) {
        for bit in 0..3 {
            self.flag(c.0 & (1 << bit) != 0);
        }
    }

    fn cards(&mut self, list: &[watergate_core::game::model::CardId], n: usize) {
        let start = self.out.len();
        self.zeros(n);
        for c in list {
            if c.index() < n {
                self.out[start + c.index()] = 1.0;
            }
        }
    }
}

/// The view as text: the position as this player sees it, one fact a line.
pub fn text(v: &View) -> String {
    let r = v.rules();
    let card = |c: &watergate_core::game::model::CardId| r.card(*c).id.clone();
    let list = |cs: &[watergate_core::game::model::CardId]| {
        cs.iter().map(card).collect::<Vec<_>>().join(" ")
    };
    let pos = |p: Option<i8>| p.map_or("off".to_string(), |p| p.to_string());
    let mut lines = vec![
        format!("viewer {}", v.side()),
        format!(
            "round {} phase {:?} turn {}",
            v.round(),
            v.phase(),
            v.turn()
        ),
        format!(
            "initiative {} token {}; momentum token {}",
            v.initiative(),
            pos(v.initiative_token()),
            pos(v.momentum_token())
        ),
        format!(
            "momentum supply {} editor {} nixon {} removed {}",
            v.momentum_supply(),
            v.momentum_on_card(Side::Editor),
            v.momentum_on_card(Side::Nixon),
            v.momentum_removed()
        ),
        format!("hand [{}]", list(v.my_hand())),
    ];
    for side in Side::BOTH {
        lines.push(format!(
            "{side}: hand {} deck {} played {} discard [{}]",
            v.hand_size(side),
            v.deck_size(side),
            v.turns_played(side),
            list(v.discard(side))
        ));
    }
    lines.push(format!("removed [{}]", list(v.removed())));
    lines.push(format!("bag {}", v.bag_size()));
    let kind =
        |c: Colours, symbol: bool| watergate_core::game::engine::notation::kind_name(c, symbol);
    let track: Vec<String> = v
        .track()
        .iter()
        .map(|x| {
            let what = match x.colours {
                Some(c) => kind(c, x.momentum_symbol == Some(true)),
                None => "?".to_string(),
            };
            let face = if x.face_up { "up" } else { "down" };
            // R5.6: what a vain ask told everyone, "down not blue".
            let lacks: Vec<&str> = x.ruled_out.iter().map(|c| c.name()).collect();
            let lacks = if lacks.is_empty() {
                String::new()
            } else {
                format!(" not {}", lacks.join("/"))
            };
            format!("#{}@{} {what} {face}{lacks}", x.slot, x.pos)
        })
        .collect();
    lines.push(format!("track [{}]", track.join(", ")));
    // By space: the engine lists the board's tokens by token id, which a
    // deal of the hidden tokens changes, and two states the player cannot
    // tell apart must give the same string.
    let mut on_board = v.board();
    on_board.sort_by_key(|b| b.space.index());
    let board: Vec<String> = on_board
        .iter()
        .map(|b| {
            let face = if b.face_up { "up" } else { "down" };
            format!(
                "{} {} {face}",
                r.board.spaces[b.space.index()].id,
                kind(b.colours, b.momentum_symbol)
            )
        })
        .collect();
    lines.push(format!("board [{}]", board.join(", ")));
    let pictures: Vec<String> = v
        .pictures()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let at = match p {
                PicLoc::Supply => "supply",
                PicLoc::Pinned { face_up: true } => "up",
                PicLoc::Pinned { face_up: false } => "down",
            };
            format!("{}:{at}", r.pictures[i].name)
        })
        .collect();
    lines.push(format!("pictures [{}]", pictures.join(" ")));
    let table: Vec<String> = v
        .in_play()
        .iter()
        .map(|p| {
            let part = p.part.map_or("?", |p| p.name());
            let cancelled = if p.cancelled { " cancelled" } else { "" };
            format!("{} {} {part}{cancelled}", p.player, card(&p.card))
        })
        .collect();
    lines.push(format!("table [{}]", table.join(", ")));
    if let Some((c, symbol)) = v.held_token() {
        lines.push(format!("to pin {}", kind(c, symbol)));
    }
    // The decision the viewer takes now, in the words of `watergate
    // scenario` (the tensor's last block holds the same).
    if v.legal(&mut Vec::new()) {
        lines.push(format!(
            "to decide: {}",
            describe_kind(r, &v.decision_kind())
        ));
    }
    if let Some(o) = v.outcome() {
        lines.push(format!("over: {} wins ({:?})", o.winner, o.cause));
    }
    lines.join("\n")
}
