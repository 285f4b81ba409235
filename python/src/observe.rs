//! What one player sees, as OpenSpiel asks for it: a text and a tensor,
//! both made from the engine's `View` of that player and nothing else, so
//! they hide exactly what the rules hide (the opponent's hand, every deck's
//! order, the bag, and for the Editor the face-down tokens on the track).

use watergate_core::game::engine::{Ask, DecisionKind};
use watergate_core::game::model::{Colours, Part, Side};
use watergate_core::game::rules::Rules;
use watergate_core::game::state::{Phase, PicLoc};
use watergate_core::game::view::View;
use watergate_formats::scenario::describe_kind;

/// The tensor's layout for one set of rules: its length is fixed by them.
pub struct TensorShape {
    cards: usize,
    tokens: usize,
    spaces: usize,
    pictures: usize,
    /// Track positions, from `-(length - 1)` to `length - 1`.
    positions: usize,
}

impl TensorShape {
    pub fn of(r: &Rules) -> TensorShape {
        TensorShape {
            cards: r.cards.len(),
            tokens: r.evidence.len(),
            spaces: r.board.spaces.len(),
            pictures: r.pictures.len(),
            positions: (2 * r.numbers.track_length.max(1) - 1) as usize,
        }
    }

    /// Whose view (2), the round (1), the phase (4), initiative holder and
    /// turn (2 + 2), the initiative and momentum tokens (positions + 1 for
    /// "not on the track", each), the momentum supply, cards and removed (4),
    /// turns played (2), hand, deck and discard sizes (6), the bag (1), the
    /// connected informants (1), the cards in the viewer's hand, in each
    /// discard pile and removed (4 × cards), the cards on the table and of
    /// them those played for their value, for their action, and cancelled
    /// (4 × cards), each track slot
    /// (`slot_len`), each board space (taken, face up,
    /// colours, symbol: 6), each picture (supply, face up, face down: 3),
    /// a token waiting to be pinned (present, colours, symbol: 5), and the
    /// decision the viewer takes now, if theirs (`DECISION_KINDS` + cards +
    /// colours (3) + `ASKS` + 1: see `decision`).
    pub fn len(&self) -> usize {
        2 + 1
            + 4
            + 4
            + 2 * (self.positions + 1)
            + 4
            + 2
            + 6
            + 1
            + 1
            + 4 * self.cards
            + 4 * self.cards
            + self.tokens * self.slot_len()
            + self.spaces * 6
            + self.pictures * 3
            + 5
            + DECISION_KINDS
            + self.cards
            + 3
            + ASKS
            + 1
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
            out: Vec::with_capacity(self.len()),
        };
        let r = v.rules();
        t.side(v.side());
        t.push(v.round() as f32 / 10.0);
        let phase = [Phase::Initial, Phase::Cards, Phase::Evaluation, Phase::Over];
        for p in phase {
            t.flag(v.phase() == p);
        }
        t.side(v.initiative());
        t.side(v.turn());
        t.position(v.initiative_token(), self.positions);
        t.position(v.momentum_token(), self.positions);
        let momentum = r.numbers.momentum_tokens.max(1) as f32;
        t.push(v.momentum_supply() as f32 / momentum);
        for side in Side::BOTH {
            t.push(v.momentum_on_card(side) as f32 / momentum);
        }
        t.push(v.momentum_removed() as f32 / momentum);
        for side in Side::BOTH {
            t.push(v.turns_played(side) as f32 / 10.0);
        }
        let cards = self.cards.max(1) as f32;
        for side in Side::BOTH {
            t.push(v.hand_size(side) as f32 / cards);
            t.push(v.deck_size(side) as f32 / cards);
            t.push(v.discard(side).len() as f32 / cards);
        }
        t.push(v.bag_size() as f32 / self.tokens.max(1) as f32);
        t.push(v.connected_informants() as f32 / self.pictures.max(1) as f32);
        t.cards(v.my_hand(), self.cards);
        for side in Side::BOTH {
            t.cards(v.discard(side), self.cards);
        }
        t.cards(v.removed(), self.cards);
        // How a card on the table is played, not only which: a card that
        // must be played at once is on the table both while its part is
        // chosen and while its value's target is, two decisions with
        // different options that the ids alone could not tell apart.
        let table = v.in_play();
        let on_table: Vec<_> = table.iter().map(|p| p.card).collect();
        t.cards(&on_table, self.cards);
        for part in [Some(Part::Value), Some(Part::Action)] {
            let played: Vec<_> = table
                .iter()
                .filter(|p| p.part == part)
                .map(|p| p.card)
                .collect();
            t.cards(&played, self.cards);
        }
        let cancelled: Vec<_> = table
            .iter()
            .filter(|p| p.cancelled)
            .map(|p| p.card)
            .collect();
        t.cards(&cancelled, self.cards);
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
        let pictures = v.pictures();
        for p in 0..self.pictures {
            let at = pictures.get(p).copied();
            t.flag(at == Some(PicLoc::Supply));
            t.flag(at == Some(PicLoc::Pinned { face_up: true }));
            t.flag(at == Some(PicLoc::Pinned { face_up: false }));
        }
        match v.held_token() {
            None => t.zeros(5),
            Some((colours, symbol)) => {
                t.flag(true);
                t.colours(colours);
                t.flag(symbol);
            }
        }
        self.decision(&mut t, v);
        assert_eq!(t.out.len(), self.len(), "the tensor's layout");
        t.out
    }

    /// The decision the viewer takes now (zeros when it is not theirs):
    /// its kind, the card and the colour it is about, and inside a card's
    /// action what the instruction asks for and how far a move of several
    /// tokens is. Without it, two decisions in a row of one play had the
    /// same tensor but different options: a value play's target before
    /// and after a vain ask (R5.6), a card chosen by The system works and
    /// then that card's own choice.
    fn decision(&self, t: &mut Tensor, v: &View) {
        let mut options = Vec::new();
        if !v.legal(&mut options) {
            t.zeros(DECISION_KINDS + self.cards + 3 + ASKS + 1);
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
        t.cards(card.as_slice(), self.cards);
        t.colours(colour.map_or(Colours::NONE, Colours::single));
        let (ask_index, progress) = match ask {
            None => (ASKS, 0.0),
            Some(a) => ask_index(a),
        };
        for i in 0..ASKS {
            t.flag(i == ask_index);
        }
        t.push(progress);
    }
}

/// The kinds of a player's decision (`DecisionKind` but chance).
const DECISION_KINDS: usize = 8;

/// The kinds of what an instruction of a card's action asks (`Ask`).
const ASKS: usize = 11;

/// What an instruction asks, as its place among `ASKS`, and for a move of
/// several tokens the share already moved.
fn ask_index(a: &Ask) -> (usize, f32) {
    match a {
        Ask::Move { count, done, .. } => (0, f32::from(*done) / f32::from((*count).max(1))),
        Ask::Place { .. } => (1, 0.0),
        Ask::TrackToBag { .. } => (2, 0.0),
        Ask::PinFromTrack { .. } => (3, 0.0),
        Ask::BoardToBag { .. } => (4, 0.0),
        Ask::BoardToTrack { .. } => (5, 0.0),
        Ask::FlipOnBoard => (6, 0.0),
        Ask::UnpinPicture => (7, 0.0),
        Ask::ChooseCard { .. } => (8, 0.0),
        Ask::Branch { .. } => (9, 0.0),
        Ask::Continue => (10, 0.0),
    }
}

struct Tensor {
    out: Vec<f32>,
}

impl Tensor {
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
