//! The game as loaded: every card, the board, the tokens, the numbers and
//! the compiled card programs. Built once by `data::load` and shared
//! read-only by every game; nothing in it changes during play.

use crate::game::host::{CardContext, Reveals, ScriptHost};
use crate::game::model::*;
use crate::game::program::{Program, TypeMask};
use serde::{Deserialize, Serialize};

/// The most evidence tokens a game may have (the shipped game has 36):
/// the engine keeps the research track's slots as the bits of a `u64`
/// (a value play's targets, `engine::play::ValueTargets`), so the loader
/// refuses more.
pub const MAX_EVIDENCE: usize = 64;

/// The most player cards a side may have (the shipped game has 20): a
/// hand holds only its side's cards, and the engine keeps a hand's cards
/// as the bits of a `u64` (a turn's options, `engine::flow::TurnOptions`),
/// so the loader refuses more.
pub const MAX_CARDS_A_SIDE: usize = 64;

/// The game's numbers (R1–R8), from `cards/game.ron`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Numbers {
    /// Cards the initiative holder draws each round (R4.1; 5 in the base game).
    pub hand_size_with_initiative: u8,
    /// Cards the other player draws each round (R4.1; 4 in the base game).
    pub hand_size_without_initiative: u8,
    /// Evidence tokens Nixon draws face down onto space 0 each round (R4.2; 3).
    pub evidence_per_round: u8,
    /// Spaces on each side of 0 (R1.3); reaching this space gains a token (R5.8).
    pub track_length: i8,
    /// Momentum tokens in the game, wherever they lie (R1.4; 9).
    pub momentum_tokens: u8,
    /// Momentum tokens put on space 0 at setup, 0 or 1; the rest are the supply
    /// (R2.3).
    pub momentum_on_track_at_start: u8,
    /// Tokens on Nixon's momentum card that win the game for him (R8.1; 5).
    pub momentum_to_win: u8,
    /// Connected face-up informants that win the game for the Editor (R8.3; 2).
    pub informants_to_connect: u8,
    /// Who holds the initiative in round 1 (R2.2; the Editor).
    pub first_initiative: Side,
}

/// Settings a house rule may flip (docs/open-questions.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    /// Where an evidence token goes that must be pinned but finds no empty
    /// matching space (Q1).
    pub unpinnable_evidence: Unpinnable,
    /// Whether the Editor, having asked in vain for a colour, stays held to it
    /// (the erratum of R5.6, R10.2); `false` plays the rulebook before it.
    pub named_colour_locked: bool,
    /// Steps the momentum symbol moves the momentum token when its evidence
    /// token is pinned (R7.6; 1 in the base game, 0 to 10).
    pub momentum_symbol_steps: u8,
    /// Where the momentum token goes when the Editor gains it with no free
    /// space on her card (R7.3).
    pub editor_momentum_overflow: Overflow,
}

/// A requirement for using a card's action part (R5.11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Requirement {
    /// That informant's picture is still in the supply of potential informants
    /// (the informant cards).
    PictureInSupply(PictureId),
    /// Not on the player's first turn of the round (A brilliant mood, Q5).
    NotFirstTurnOfRound,
    /// Every listed requirement holds.
    All(Vec<Requirement>),
}

/// What the value of a play moves, for reaction triggers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Moved {
    /// The initiative token.
    Initiative,
    /// The momentum token.
    Momentum,
    /// An evidence token.
    Evidence,
}

/// The opponent's play a reaction card answers (R6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trigger {
    /// The part of the opponent's play it answers (Mitchell, Bradlee and Mass
    /// demonstration answer an action, Follow the money! a value).
    pub part: Part,
    /// The types of the opponent's card that trigger it (empty: any type).
    pub types: TypeMask,
    /// With `part: Value` only: what the value must be moving (`None`: any
    /// token).
    pub moves: Option<Moved>,
}

/// How a card's action is carried out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Action {
    /// The script reads no game state: its program, computed at load.
    Static(Program),
    /// The script reads the game: run script unit `unit` at every play.
    Dynamic {
        /// The compiled script (index into `Rules::scripts`).
        unit: usize,
    },
}

/// A player card (R1.7).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Card {
    /// The card's stable id, `<side>.<name>` (`nixon.howard_hunt`): scenarios,
    /// logs, variants and the notation name cards by it.
    pub id: String,
    /// The printed card number (a placeholder but for card 42, D1).
    pub number: u16,
    /// The card's name, shown to players.
    pub name: String,
    /// Whose deck it is in.
    pub side: Side,
    /// Event, conspirator or journalist (R1.7).
    pub card_type: CardType,
    /// The value part: the steps the card moves a token when played for its
    /// value (R5.3; 1 to 4 on the printed cards, D2).
    pub value: u8,
    /// The value part's colours; all three is a joker (R1.7, R5.4, D2).
    pub colours: Colours,
    /// The informant an informant card names (its picture), if it is one.
    pub informant: Option<PictureId>,
    /// The steps printed in an informant card's action text (D3), read by its
    /// script as `card.steps`.
    pub steps: Option<u8>,
    /// When the action part may be used (R5.11); `None`: always.
    pub requirement: Option<Requirement>,
    /// What the card answers, if it is a reaction card (R5.12, R6).
    pub reaction: Option<Trigger>,
    /// The action as printed, shown to players; the engine does not read it.
    pub action_text: String,
    /// The quote; it has no effect on play (R1.7, D7).
    pub quote: String,
    /// Script path relative to the data root.
    pub script: String,
    /// How the card's action is carried out: its program, or its script run at
    /// every play.
    #[serde(skip)]
    pub action: Action,
    /// The compiled script (index into `Rules::scripts`).
    #[serde(skip)]
    pub unit: usize,
    /// The card file, relative to the data root.
    pub file: String,
    /// Fields whose values are placeholders (docs/open-questions.md, D1–D7).
    pub placeholders: Vec<String>,
}

impl Card {
    /// Whether the card is a reaction card (R5.12): its action is used only in
    /// answer to a play it is triggered by.
    pub fn is_reaction(&self) -> bool {
        self.reaction.is_some()
    }
}

/// One space of a momentum card (R9).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MomentumSpace {
    /// The space's title, shown to players ("Watergate Trial"), if it has one.
    pub title: Option<String>,
    /// The printed instruction, shown to players, if it has one.
    pub text: Option<String>,
    /// The script carried out when a token is placed on this space (R7.3,
    /// Q12), as a path relative to the data root.
    pub script: Option<String>,
    /// How the space's instruction is carried out; `None` without a script.
    #[serde(skip)]
    pub action: Option<Action>,
    /// The compiled script (index into `Rules::scripts`); `None` without one.
    #[serde(skip)]
    pub unit: Option<usize>,
}

/// A side's momentum card (R9): the spaces its momentum tokens go on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MomentumCard {
    /// The card's id (`nixon.momentum`, `editor.momentum`).
    pub id: String,
    /// The printed card number (D1).
    pub number: u16,
    /// The card's name, shown to players.
    pub name: String,
    /// Whose card it is.
    pub side: Side,
    /// The spaces, the first is space 1; a token goes on the lowest free one
    /// (R7.3).
    pub spaces: Vec<MomentumSpace>,
    /// The card file, relative to the data root.
    pub file: String,
    /// Fields whose values are placeholders (docs/open-questions.md, D1–D7).
    pub placeholders: Vec<String>,
}

/// What a space of the evidence board is (R1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SpaceKind {
    /// Nixon's picture in the middle: the end of every connection (R8.3).
    Nixon,
    /// The informant space of this picture, on the edge.
    Informant(PictureId),
    /// An evidence space, with the colour of its slip (R7.6).
    Evidence(Colour),
}

/// One space of the evidence board (R1.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardSpace {
    /// A unique name (`e2b`, `informant_woods`), used by scenarios and the
    /// notation.
    pub id: String,
    /// What the space is.
    pub kind: SpaceKind,
    /// Axial hex coordinates `(q, r)`, used only to draw the board.
    pub at: (i8, i8),
}

/// The evidence board (R1.6): spaces and the threads between them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// Every space; a [`SpaceId`] is an index into this list.
    pub spaces: Vec<BoardSpace>,
    /// The spaces joined to each space by a thread, by `SpaceId`.
    pub neighbours: Vec<Vec<SpaceId>>,
    /// Nixon's space in the middle.
    pub nixon: SpaceId,
    /// The space of each picture, by `PictureId`.
    pub informant_spaces: Vec<SpaceId>,
    /// The evidence spaces whose slip shows a colour of a set, by the
    /// set's bits (`Colours.0 & 7`): a token's pin spaces before the
    /// occupied ones are taken out (R7.6). Derived from `spaces` by
    /// [`Board::new`].
    #[serde(skip)]
    pub(crate) matching: [SpaceSet; 8],
    /// Each space's neighbours as a set, by `SpaceId` (the connection
    /// walk of R8.3 takes a whole frontier's neighbours at once).
    #[serde(skip)]
    pub(crate) neighbour_sets: Vec<SpaceSet>,
    /// On a board of at most 64 spaces (the shipped one has 40), each
    /// space's neighbours as one word, by `SpaceId`: every set of its
    /// spaces lies in a `SpaceSet`'s first word, and `around` walks and
    /// joins that word alone (the walks read four words a step before:
    /// the search's judged connection need was a tenth of an ISMCTS
    /// iteration, issue 38). Empty on a bigger board.
    #[serde(skip)]
    pub(crate) neighbour_words: Vec<u64>,
    /// All evidence spaces, and all informant spaces.
    #[serde(skip)]
    pub(crate) evidence_spaces: SpaceSet,
    #[serde(skip)]
    pub(crate) informant_set: SpaceSet,
}

impl Board {
    /// The board of these spaces, threads, Nixon's space and informant spaces,
    /// with the sets of spaces the engine asks for built from them.
    pub fn new(
        spaces: Vec<BoardSpace>,
        neighbours: Vec<Vec<SpaceId>>,
        nixon: SpaceId,
        informant_spaces: Vec<SpaceId>,
    ) -> Board {
        let mut matching = [SpaceSet::EMPTY; 8];
        for (bits, set) in matching.iter_mut().enumerate() {
            let colours = Colours(bits as u8);
            for (i, sp) in spaces.iter().enumerate() {
                if let SpaceKind::Evidence(c) = sp.kind {
                    if colours.contains(c) {
                        set.insert(SpaceId(i as u8));
                    }
                }
            }
        }
        let neighbour_sets: Vec<SpaceSet> = neighbours
            .iter()
            .map(|ns| {
                let mut set = SpaceSet::EMPTY;
                for y in ns {
                    set.insert(*y);
                }
                set
            })
            .collect();
        let neighbour_words = if spaces.len() <= 64 {
            neighbour_sets.iter().map(|set| set.first_word()).collect()
        } else {
            Vec::new()
        };
        let mut evidence_spaces = SpaceSet::EMPTY;
        let mut informant_set = SpaceSet::EMPTY;
        for (i, sp) in spaces.iter().enumerate() {
            match sp.kind {
                SpaceKind::Evidence(_) => evidence_spaces.insert(SpaceId(i as u8)),
                SpaceKind::Informant(_) => informant_set.insert(SpaceId(i as u8)),
                SpaceKind::Nixon => {}
            }
        }
        Board {
            spaces,
            neighbours,
            nixon,
            informant_spaces,
            matching,
            neighbour_sets,
            neighbour_words,
            evidence_spaces,
            informant_set,
        }
    }

    /// The evidence spaces of the board (R1.6), as a set.
    #[inline]
    pub fn evidence_spaces(&self) -> SpaceSet {
        self.evidence_spaces
    }

    /// On a board of at most 64 spaces, each space's neighbours as the
    /// bits of one word, by `SpaceId` (a walk over such a board needs no
    /// more than a word a set); `None` on a bigger board.
    #[inline]
    pub fn neighbour_words(&self) -> Option<&[u64]> {
        (!self.neighbour_words.is_empty()).then_some(&self.neighbour_words[..])
    }

    /// The spaces next to `space` (none for an id off the board).
    #[inline]
    pub fn next_to(&self, space: SpaceId) -> SpaceSet {
        self.neighbour_sets
            .get(space.index())
            .copied()
            .unwrap_or(SpaceSet::EMPTY)
    }

    /// Every space next to a space of `set`: the step of the walks over
    /// the board (the connection of R8.3, the judged connection need).
    #[inline]
    pub fn around(&self, set: SpaceSet) -> SpaceSet {
        if !self.neighbour_words.is_empty() {
            // A board of at most 64 spaces: the set is its first word.
            let mut bits = set.first_word();
            let mut out = 0;
            while bits != 0 {
                out |= self.neighbour_words[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            return SpaceSet::from_first_word(out);
        }
        let mut out = SpaceSet::EMPTY;
        for x in set.iter() {
            out = out.union(self.next_to(x));
        }
        out
    }

    /// The evidence spaces whose slip shows one of `colours`.
    #[inline]
    pub(crate) fn matching(&self, colours: Colours) -> SpaceSet {
        self.matching[(colours.0 & 7) as usize]
    }

    /// The space whose id (`BoardSpace::id`) is `id`.
    pub fn space_index(&self, id: &str) -> Option<SpaceId> {
        self.spaces
            .iter()
            .position(|s| s.id == id)
            .map(|i| SpaceId(i as u8))
    }

    /// The colour slip of evidence space `s`; `None` for Nixon's and the
    /// informant spaces.
    pub fn slip(&self, s: SpaceId) -> Option<Colour> {
        match self.spaces[s.index()].kind {
            SpaceKind::Evidence(c) => Some(c),
            _ => None,
        }
    }
}

/// One physical evidence token (R1.4, R1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EvidenceToken {
    /// One colour, or two for a two-coloured token (R1.5).
    pub colours: Colours,
    /// Whether the token shows the momentum symbol (R1.5, R7.6).
    pub momentum_symbol: bool,
    /// In the bag at setup; otherwise in the reserve (docs/open-questions.md#d4).
    pub in_bag: bool,
}

/// A picture tile: one informant (R1.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Picture {
    /// The surname printed on the informant space (`Woods`): the key cards,
    /// the board and scenarios name it by.
    pub name: String,
    /// The full name (`Rose Mary Woods`), shown to players.
    pub full_name: String,
}

/// Everything that makes up the game, loaded and checked.
#[derive(Debug)]
pub struct Rules {
    /// The game's name (`cards/game.ron`), shown in reports.
    pub name: String,
    /// The game's numbers (R1–R8).
    pub numbers: Numbers,
    /// The readings a house rule may flip (docs/open-questions.md).
    pub settings: Settings,
    /// Every player card, sorted by side (the Editor's first) then number; a
    /// [`CardId`] is an index into this list.
    pub cards: Vec<Card>,
    /// By `Side::index()`.
    pub momentum_cards: BySide<MomentumCard>,
    /// The evidence board (R1.6).
    pub board: Board,
    /// Every physical evidence token, those put in the bag at setup first, then
    /// the reserve; a [`TokenId`] is an index into this list.
    pub evidence: Vec<EvidenceToken>,
    /// The picture tiles in the order of `cards/tokens.ron`; a [`PictureId`] is
    /// an index into this list.
    pub pictures: Vec<Picture>,
    /// The scripting host the engine calls (the rhai host, or a wrapper).
    pub scripts: std::sync::Arc<dyn ScriptHost>,
    /// Fingerprint of the data files (see `DataSet::fingerprint`).
    pub fingerprint: u64,
    /// What each script sees as `card` (and `space`), built once
    /// (`ScriptContexts::of`, when the rules are complete).
    ///
    /// The three caches are the core's own: only the loader makes a
    /// `Rules` (no one outside the crate can write these fields, so no
    /// one can build one with caches that disagree with the cards), and it
    /// fills them last, from the finished rules (`Rules::with_caches`).
    pub(crate) contexts: ScriptContexts,
    /// What the engine asks of each card at every turn, packed
    /// (`CardTraitTable::of`, when the rules are complete).
    pub(crate) traits: CardTraitTable,
    /// Every evidence token's colours, by `TokenId` (`TokenColourTable::of`,
    /// when the rules are complete).
    pub(crate) token_colours: TokenColourTable,
    /// A new game's lists before its shuffles (`StartingLists::of`, when
    /// the rules are complete).
    pub(crate) start: crate::game::state::StartingLists,
}

/// Every evidence token's colours, by `TokenId`: room for every id a
/// `TokenId` can hold, so a look-up needs no bounds check. And, for each
/// set of colours (`Colours`' three bits), the tokens showing one of them
/// as bits by `TokenId` (the loader allows at most `MAX_EVIDENCE`, 64):
/// a value play's targets are then one `and` of the state's masks of the
/// track (`State::track_face_down`) with these, not a look at each token.
#[derive(Clone, Debug)]
pub struct TokenColourTable([Colours; 256], [u64; 8]);

impl Default for TokenColourTable {
    fn default() -> Self {
        TokenColourTable([Colours::NONE; 256], [0; 8])
    }
}

impl TokenColourTable {
    /// The colours of `tokens`, as they are now.
    pub fn of(tokens: &[EvidenceToken]) -> TokenColourTable {
        let mut t = TokenColourTable::default();
        for (slot, token) in t.0.iter_mut().zip(tokens) {
            *slot = token.colours;
        }
        for (set, mask) in t.1.iter_mut().enumerate() {
            for (id, token) in tokens.iter().enumerate().take(64) {
                *mask |= u64::from(token.colours.intersects(Colours(set as u8))) << id;
            }
        }
        t
    }
}

/// What the engine asks of a card at every turn and at every declared
/// play, in two bytes: whether it is a reaction card, its type, and its
/// action's requirement where it is a single one. The idle turn asks it
/// of every card in hand, and the reaction check of every card in the
/// opponent's hand; read from the cards themselves, each question loaded
/// a different field of a large record behind a bounds check (issue 16's
/// profile).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardTraits {
    flags: u8,
    /// The plays this card may react to, by their part and the type of the
    /// card played: bit `3 * part + type` (`Part::Value` 0, `Part::Action`
    /// 1; types as in `flags`). A declared play asks the opponent's hand
    /// for this bit before it reads any trigger, so a hand of reactions to
    /// other plays costs one test a card (issue 38: every value play had
    /// read each reaction card's trigger to find it did not apply).
    reacts: u8,
    /// `QUICK_NONE`, `QUICK_NOT_FIRST_TURN`, `QUICK_PICTURE + p` for a
    /// picture `p` in the supply, or `QUICK_OTHER` (ask the card).
    requirement: u8,
    /// Whether the action may be used on a turn of its own, as the bit
    /// to read in the turn's mask of requirements met (`turn_code`).
    turn: u8,
}

/// A card's requirement as its traits hold it ([`CardTraits::requirement`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuickRequirement {
    /// The card's action has no requirement.
    None,
    /// Not on the player's first turn of the round (A brilliant mood, Q5).
    NotFirstTurnOfRound,
    /// That picture is still in the supply (the informant cards).
    PictureInSupply(PictureId),
    /// Any other: the card's own `requirement` says.
    Other,
}

impl CardTraits {
    const REACTION: u8 = 1;
    const TYPE_SHIFT: u32 = 2;
    pub(crate) const QUICK_NONE: u8 = 0;
    pub(crate) const QUICK_NOT_FIRST_TURN: u8 = 1;
    pub(crate) const QUICK_PICTURE: u8 = 2;
    const QUICK_OTHER: u8 = u8::MAX;
    /// `turn_code` of a reaction card: its action is never used on a
    /// turn of its own (R5.12). A bit the turn's mask never sets.
    pub(crate) const TURN_NEVER: u8 = 64;
    /// `turn_code` of a card whose requirement the mask does not hold:
    /// `State::action_usable` must be asked.
    pub(crate) const TURN_ASK: u8 = 65;

    /// The traits of card `c`.
    pub fn of(c: &Card) -> CardTraits {
        let ty = match c.card_type {
            CardType::Event => 0,
            CardType::Conspirator => 1,
            CardType::Journalist => 2,
        };
        let requirement = match &c.requirement {
            None => Self::QUICK_NONE,
            Some(Requirement::NotFirstTurnOfRound) => Self::QUICK_NOT_FIRST_TURN,
            Some(Requirement::PictureInSupply(p))
                if p.0 < Self::QUICK_OTHER - Self::QUICK_PICTURE =>
            {
                Self::QUICK_PICTURE + p.0
            }
            Some(_) => Self::QUICK_OTHER,
        };
        let reaction = if c.is_reaction() { Self::REACTION } else { 0 };
        let mut reacts = 0;
        if let Some(trigger) = &c.reaction {
            for (t, card_type) in [CardType::Event, CardType::Conspirator, CardType::Journalist]
                .into_iter()
                .enumerate()
            {
                if trigger.types.admits(card_type) {
                    reacts |= 1 << (3 * Self::part_code(trigger.part) + t as u32);
                }
            }
        }
        let turn = if c.is_reaction() {
            Self::TURN_NEVER
        } else if requirement < 64 {
            requirement
        } else {
            Self::TURN_ASK
        };
        CardTraits {
            flags: reaction | ty << Self::TYPE_SHIFT,
            reacts,
            requirement,
            turn,
        }
    }

    fn part_code(part: Part) -> u32 {
        match part {
            Part::Value => 0,
            Part::Action => 1,
        }
    }

    /// Whether the card's reaction (R6) can answer a play of `part` of a
    /// card with these traits (`played`); its other conditions (what the
    /// play moves, the action's requirement) are the trigger's to say.
    #[inline]
    pub fn may_answer(self, part: Part, played: CardTraits) -> bool {
        let t = u32::from(played.flags >> Self::TYPE_SHIFT);
        self.reacts & (1 << (3 * Self::part_code(part) + t)) != 0
    }

    /// `Card::is_reaction`.
    #[inline]
    pub fn is_reaction(self) -> bool {
        self.flags & Self::REACTION != 0
    }

    /// Whether the card's action has a requirement (R5.11).
    #[inline]
    pub fn has_requirement(self) -> bool {
        self.requirement != Self::QUICK_NONE
    }

    /// The requirement's code: bit `code` of the engine's mask of the
    /// requirements met on a turn says whether it is met (codes from 64 on
    /// are not covered there: ask [`CardTraits::requirement`]).
    #[inline]
    pub fn requirement_code(self) -> u8 {
        self.requirement
    }

    /// Whether the card's action may be used on a turn of its own (R5.11,
    /// R5.12), as a bit of the turn's mask of quick requirements met
    /// (`State::quick_requirements_met`, widened to 128 bits): the
    /// requirement's code, `TURN_NEVER` for a reaction card (a bit the
    /// mask never sets), or `TURN_ASK` (ask `State::action_usable`). A
    /// turn's options read each card's with no branch on its kind
    /// (issue 38).
    #[inline]
    pub fn turn_code(self) -> u8 {
        self.turn
    }

    /// The card's requirement (R5.11), where it is a single one.
    #[inline]
    pub fn requirement(self) -> QuickRequirement {
        match self.requirement {
            Self::QUICK_NONE => QuickRequirement::None,
            Self::QUICK_NOT_FIRST_TURN => QuickRequirement::NotFirstTurnOfRound,
            Self::QUICK_OTHER => QuickRequirement::Other,
            p => QuickRequirement::PictureInSupply(PictureId(p - Self::QUICK_PICTURE)),
        }
    }

    /// The card's type (R1.7).
    #[inline]
    pub fn card_type(self) -> CardType {
        match self.flags >> Self::TYPE_SHIFT {
            0 => CardType::Event,
            1 => CardType::Conspirator,
            _ => CardType::Journalist,
        }
    }
}

/// Every card's [`CardTraits`], by `CardId`: room for every id a `CardId`
/// can hold, so a look-up needs no bounds check.
#[derive(Clone, Debug)]
pub struct CardTraitTable {
    by_id: [CardTraits; 256],
    /// Whether any card's `turn_code` is `TURN_ASK`: a turn of a game
    /// with none (the shipped one) does not look for them (issue 38).
    any_turn_ask: bool,
}

impl Default for CardTraitTable {
    fn default() -> Self {
        CardTraitTable {
            by_id: [CardTraits::default(); 256],
            any_turn_ask: false,
        }
    }
}

impl CardTraitTable {
    /// The traits of `cards`, as they are now.
    pub fn of(cards: &[Card]) -> CardTraitTable {
        let mut t = CardTraitTable::default();
        for (slot, c) in t.by_id.iter_mut().zip(cards) {
            *slot = CardTraits::of(c);
            t.any_turn_ask |= slot.turn_code() == CardTraits::TURN_ASK;
        }
        t
    }
}

/// What each card's and momentum space's script sees as `card` (and
/// `space`), built once at load: a script that reads the game runs at
/// every play of its card, and building its context map each time cost
/// more than running the script (issue 16's profile of dynamic scripts).
#[derive(Debug, Default)]
pub struct ScriptContexts {
    cards: Vec<CardContext>,
    /// By side, then by space (from 0).
    spaces: BySide<Vec<CardContext>>,
}

impl ScriptContexts {
    /// The contexts of `r`'s cards and momentum spaces, as they are now.
    pub fn of(r: &Rules) -> ScriptContexts {
        ScriptContexts {
            cards: (0..r.cards.len())
                .map(|i| r.card_context(CardId(i as u8)))
                .collect(),
            spaces: BySide::from_fn(|side| {
                (0..r.momentum_cards[side].spaces.len())
                    .map(|i| r.space_context(side, i))
                    .collect()
            }),
        }
    }
}

impl Rules {
    /// The rules with their caches built from what they hold now: the
    /// loader's last step, once cards, board and numbers are final.
    pub(crate) fn with_caches(mut self) -> Rules {
        self.contexts = ScriptContexts::of(&self);
        self.traits = CardTraitTable::of(&self.cards);
        self.token_colours = TokenColourTable::of(&self.evidence);
        self.start = crate::game::state::StartingLists::of(&self);
        self
    }
}

impl Rules {
    /// The card with id `id`.
    #[inline]
    pub fn card(&self, id: CardId) -> &Card {
        &self.cards[id.index()]
    }

    /// What the engine asks of `id` at every turn ([`CardTraits`]).
    #[inline]
    pub fn traits(&self, id: CardId) -> CardTraits {
        self.traits.by_id[id.0 as usize]
    }

    /// Whether any card's action needs `State::action_usable` asked on a
    /// turn of its own ([`CardTraits::turn_code`] `TURN_ASK`).
    #[inline]
    pub(crate) fn any_turn_ask(&self) -> bool {
        self.traits.any_turn_ask
    }

    /// The colours of evidence token `t` (R1.5): `token(t).colours`, read
    /// from a table with room for every id, with no bounds check. A value
    /// play's options ask it of every token on the track (issue 38).
    #[inline]
    pub fn token_colours(&self, t: TokenId) -> Colours {
        self.token_colours.0[t.0 as usize]
    }

    /// The tokens showing one of `colours` (R5.4), as bits by `TokenId`
    /// (below `MAX_EVIDENCE`).
    #[inline]
    pub fn tokens_matching(&self, colours: Colours) -> u64 {
        self.token_colours.1[(colours.0 & 7) as usize]
    }

    /// The card whose id (`Card::id`, `nixon.howard_hunt`) is `key`.
    pub fn card_by_id(&self, key: &str) -> Option<CardId> {
        self.cards
            .iter()
            .position(|c| c.id == key)
            .map(|i| CardId(i as u8))
    }

    /// The cards of `side`'s deck, in `CardId` order.
    pub fn cards_of(&self, side: Side) -> impl Iterator<Item = CardId> + '_ {
        self.cards
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.side == side)
            .map(|(i, _)| CardId(i as u8))
    }

    /// The picture whose name (`Picture::name`) is `name`, ignoring case.
    pub fn picture_by_name(&self, name: &str) -> Option<PictureId> {
        self.pictures
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
            .map(|i| PictureId(i as u8))
    }

    /// The evidence token `t`.
    #[inline]
    pub fn token(&self, t: TokenId) -> &EvidenceToken {
        &self.evidence[t.index()]
    }

    /// How many script files read the game (run at every play rather than
    /// once at load): the cards' and the momentum spaces', each file once.
    pub fn scripts_reading_the_game(&self) -> usize {
        let cards = self.cards.iter().map(|c| &c.action);
        let spaces = (self.momentum_cards.iter())
            .flat_map(|mc| mc.spaces.iter().filter_map(|sp| sp.action.as_ref()));
        let units: std::collections::BTreeSet<usize> = cards
            .chain(spaces)
            .filter_map(|a| match a {
                Action::Dynamic { unit } => Some(*unit),
                Action::Static(_) => None,
            })
            .collect();
        units.len()
    }

    /// Card scripts whose choices show their chooser what the rules hide:
    /// an Editor's card choosing research-track evidence by colour among
    /// face-down tokens too (R4.3: only Nixon sees their colours), and any
    /// card choosing from the opponent's hand (hidden, R5.14). Advice for
    /// `watergate check`, not errors: a house rule may mean it. Each call
    /// once, at its line and column, naming the cards that use the script.
    pub fn hidden_information_warnings(&self) -> Vec<crate::diag::Diagnostic> {
        // Each script unit with the sides and names of the cards using it.
        let mut users: std::collections::BTreeMap<usize, Vec<(Side, &str)>> = Default::default();
        for c in &self.cards {
            users.entry(c.unit).or_default().push((c.side, &c.name));
        }
        for mc in &self.momentum_cards {
            for sp in &mc.spaces {
                if let Some(unit) = sp.unit {
                    users.entry(unit).or_default().push((mc.side, &mc.name));
                }
            }
        }
        let mut out = Vec::new();
        for (unit, cards) in users {
            for call in self.scripts.revealing_calls(unit) {
                let sides: Vec<Side> = match call.reveals {
                    Reveals::FaceDownByColour(_) => vec![Side::Editor],
                    Reveals::OpponentHand => vec![Side::Nixon, Side::Editor],
                };
                for side in sides {
                    let mut names: Vec<&str> = (cards.iter())
                        .filter(|(s, _)| *s == side)
                        .map(|(_, n)| *n)
                        .collect();
                    names.dedup();
                    if names.is_empty() {
                        continue;
                    }
                    let (f, names) = (&call.function, names.join(", "));
                    let message = match &call.reveals {
                        Reveals::FaceDownByColour(colour) => format!(
                            "`{f}` with colour \"{colour}\" lists the face-down evidence of that colour \
                             on the research track to the Editor ({names}), who may not see their \
                             colours (R4.3); add `face: \"up\"` unless the card means to tell her"
                        ),
                        Reveals::OpponentHand => {
                            let (whose, to) = match side {
                                Side::Nixon => ("the Editor's", "Nixon"),
                                Side::Editor => ("Nixon's", "the Editor"),
                            };
                            format!(
                                "`{f}` lists {whose} hand to {to} ({names}), who may not see it \
                                 (R5.14); fine if the card means to let them look"
                            )
                        }
                    };
                    out.push(crate::diag::Diagnostic::new(
                        self.scripts.display(unit),
                        call.line,
                        call.col,
                        message,
                    ));
                }
            }
        }
        out
    }

    /// Card scripts that call `print` or `debug`, at each call: their text
    /// goes nowhere (`RhaiHost::silent_calls` says why), which a designer
    /// who wrote one to see a value would otherwise find out only by its
    /// silence. Advice for `watergate check`, not errors.
    pub fn silent_output_warnings(&self) -> Vec<crate::diag::Diagnostic> {
        let mut out = Vec::new();
        for unit in 0..self.scripts.units() {
            for (line, col, f) in self.scripts.silent_calls(unit) {
                out.push(crate::diag::Diagnostic::new(
                    self.scripts.display(unit),
                    line,
                    col,
                    format!(
                        "`{f}` shows nothing: a card script's only output is its effects (its \
                         text would mix with the reports); to see what the script does, \
                         `watergate play` and `replay` narrate its effects, and `script-api` \
                         lists what `card` holds"
                    ),
                ));
            }
        }
        out
    }

    /// A warning for each script with nothing in it but comments and
    /// blanks: it passes every check, and its card's action silently does
    /// nothing (a designer audit met one).
    pub fn empty_script_warnings(&self) -> Vec<crate::diag::Diagnostic> {
        (0..self.scripts.units())
            .filter(|&unit| self.scripts.does_nothing(unit))
            .map(|unit| {
                crate::diag::Diagnostic::new(
                    self.scripts.display(unit),
                    1,
                    1,
                    "the script has nothing in it but comments and blanks: the action of every card that names it does nothing",
                )
            })
            .collect()
    }

    /// Runs every script at every play instead of reusing the programs
    /// computed at load: for benchmarks that measure what the cache saves.
    pub fn force_dynamic_scripts(&mut self) {
        for c in &mut self.cards {
            c.action = Action::Dynamic { unit: c.unit };
        }
        for mc in &mut self.momentum_cards {
            for sp in &mut mc.spaces {
                if let Some(unit) = sp.unit {
                    sp.action = Some(Action::Dynamic { unit });
                }
            }
        }
    }

    /// What the script of card `id` sees, built at load (`card_context`
    /// builds it anew).
    pub fn script_context(&self, id: CardId) -> &CardContext {
        &self.contexts.cards[id.index()]
    }

    /// What the script of `side`'s momentum space `space` (from 0) sees,
    /// built at load.
    pub fn space_script_context(&self, side: Side, space: usize) -> &CardContext {
        &self.contexts.spaces[side][space]
    }

    /// What a script of this card sees as `card`.
    pub fn card_context(&self, id: CardId) -> CardContext {
        let c = self.card(id);
        let mut m = rhai::Map::new();
        m.insert("id".into(), c.id.clone().into());
        m.insert("name".into(), c.name.clone().into());
        m.insert("side".into(), c.side.key().to_string().into());
        m.insert("type".into(), c.card_type.name().to_string().into());
        m.insert("value".into(), (c.value as i64).into());
        m.insert(
            "colours".into(),
            rhai::Dynamic::from_array(
                c.colours
                    .iter()
                    .map(|k| rhai::Dynamic::from(k.name().to_string()))
                    .collect(),
            ),
        );
        m.insert(
            "informant".into(),
            c.informant
                .map(|p| rhai::Dynamic::from(self.pictures[p.index()].name.clone()))
                .unwrap_or(rhai::Dynamic::UNIT),
        );
        m.insert(
            "steps".into(),
            c.steps
                .map(|s| rhai::Dynamic::from(s as i64))
                .unwrap_or(rhai::Dynamic::UNIT),
        );
        CardContext::new(
            m,
            None,
            c.informant.is_some(),
            self.numbers.track_length as i64,
        )
        .reaction(c.is_reaction())
    }

    /// What a momentum-space script sees as `card` and `space`.
    pub fn space_context(&self, side: Side, space: usize) -> CardContext {
        let mc = &self.momentum_cards[side];
        self.space_context_named(side, space, &mc.id, &mc.name)
    }

    pub(crate) fn space_context_named(
        &self,
        side: Side,
        space: usize,
        id: &str,
        name: &str,
    ) -> CardContext {
        let mut m = rhai::Map::new();
        m.insert("id".into(), id.to_string().into());
        m.insert("name".into(), name.to_string().into());
        m.insert("side".into(), side.key().to_string().into());
        CardContext::new(
            m,
            Some(space as i64 + 1),
            false,
            self.numbers.track_length as i64,
        )
    }
}

/// Q/D: where an evidence token goes when it cannot be pinned (R7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Unpinnable")]
pub enum Unpinnable {
    /// Back into the bag (the shipped reading).
    ReturnToBag,
    /// Into the box, the reserve outside the game.
    Reserve,
}

/// Q/D: what becomes of the Editor's momentum beyond the card's spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Overflow")]
pub enum Overflow {
    /// Out of the game (the shipped reading).
    RemovedFromGame,
    /// Back into the momentum supply.
    ReturnToSupply,
}
