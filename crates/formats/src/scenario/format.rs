//! The scenario file format (RON, under `scenarios/` and `tests/`): a
//! position, choices to play and expectations to check. Everything left out
//! takes a default, so a small test position is a few lines. Token kinds are
//! written `blue`, `blue/yellow`, `green*` (momentum symbol), optionally
//! `#id` for one exact token; track positions `0`, `E2`, `N3`.

use crate::data::raw::{BoardDef, TokensDef};
use crate::data::variant::{CardPatch, GamePatch, SettingsPatch, VariantDef};
pub use crate::game::model::DepthCounts;
use crate::game::model::{BySide, Dest, Part, Side, WinCause};
use crate::game::program::Program;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scenario")]
pub struct ScenarioDef {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// A data root (relative to this file) to use instead of the built-in
    /// data. Where the game comes from (`Scenario::rules`): the command
    /// line's `--data DIR` if given, else this, else the shipped data; both
    /// naming different folders is an error.
    #[serde(default)]
    pub data: Option<String>,
    /// A variant file (relative to this file) applied to the data, after the
    /// command line's `--variant FILE` (most specific last).
    #[serde(default)]
    pub variant: Option<String>,
    /// Seeds the game's generator (and shuffles whatever the position leaves unordered).
    #[serde(default)]
    pub seed: u64,
    /// The position; without one, a new game is set up from `seed` (R2).
    #[serde(default)]
    pub position: Option<PositionDef>,
    /// Choices to play, in the notation of `watergate` (`nixon.gambit action`, `ask blue`, `ev0`, `e1a`, `pass`…).
    #[serde(default)]
    pub play: Vec<String>,
    /// Choices and expectations in turn, played after `play`:
    /// `[Play("nixon.howard_hunt action"), Expect((to_move: Some("nixon"))), …]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<StepDef>,
    /// What must hold after the choices (`play`, then `steps`) are played.
    #[serde(default)]
    pub expect: Option<ExpectDef>,
    /// Changes to the game's data for this scenario alone, written as in a
    /// variant file (cards, game numbers, settings, the board, the tokens);
    /// applied last, after `--variant` and the scenario's `variant`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edits: Option<EditsDef>,
    /// For puzzles: the claim `watergate solve` must confirm.
    #[serde(default)]
    pub puzzle: Option<PuzzleDef>,
}

/// One step of a scenario: a choice to play, or expectations that must hold
/// at that point (the same fields as `expect`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Step")]
pub enum StepDef {
    /// A choice in notation, as in `play`.
    Play(String),
    Expect(Box<ExpectDef>),
}

/// A scenario's own data changes: the fields of a variant file (see
/// `crates/core/src/data/variant.rs`) without its name, applied by the same code.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Edits")]
pub struct EditsDef {
    #[serde(default)]
    pub game: Option<GamePatch>,
    #[serde(default)]
    pub settings: Option<SettingsPatch>,
    #[serde(default)]
    pub cards: Vec<CardPatch>,
    #[serde(default)]
    pub remove_cards: Vec<String>,
    /// Card files (relative to the scenario) to add to the game.
    #[serde(default)]
    pub add_cards: Vec<String>,
    /// Data files to add or replace (path in the data, file relative to the scenario).
    #[serde(default)]
    pub files: Vec<(String, String)>,
    /// The whole evidence board, written inline (as `cards/board.ron`).
    #[serde(default)]
    pub board: Option<BoardDef>,
    /// The whole token mix, written inline (as `cards/tokens.ron`).
    #[serde(default)]
    pub tokens: Option<TokensDef>,
    /// Evidence token counts to change, group by group (as in a variant).
    #[serde(default)]
    pub token_counts: Vec<crate::data::variant::TokenPatch>,
}

impl EditsDef {
    /// Whether the edits name files (`files`, `add_cards`): such edits stay
    /// in their scenario, where the files lie beside them, and are not
    /// carried into a saved position or a game log.
    pub fn names_files(&self) -> bool {
        !self.files.is_empty() || !self.add_cards.is_empty()
    }

    /// The same changes as a variant, to apply with the variant's code.
    pub fn as_variant(&self, name: &str) -> VariantDef {
        VariantDef {
            name: name.to_string(),
            description: String::new(),
            game: self.game.clone(),
            settings: self.settings.clone(),
            cards: self.cards.clone(),
            remove_cards: self.remove_cards.clone(),
            add_cards: self.add_cards.clone(),
            files: self.files.clone(),
            board: self.board.clone(),
            tokens: self.tokens.clone(),
            token_counts: self.token_counts.clone(),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Phase")]
pub enum PhaseDef {
    Initial,
    #[default]
    Cards,
    Evaluation,
}

/// Where cards the position does not list go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Unlisted")]
pub enum UnlistedDef {
    /// Shuffled (with `seed`) into their owner's deck, below any listed deck cards.
    #[default]
    Deck,
    Discard,
    Removed,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Position")]
pub struct PositionDef {
    #[serde(default = "one")]
    pub round: u16,
    #[serde(default)]
    pub phase: PhaseDef,
    /// Who holds the initiative (the initiative card).
    #[serde(default = "editor")]
    pub initiative: Side,
    /// Whose turn it is (default: the initiative holder).
    #[serde(default)]
    pub turn: Option<Side>,
    /// Cards each side has played this round (reactions count).
    #[serde(default)]
    pub turns_played: BySide<u8>,
    /// `0`, `E2`, `N3`, or `gained` (on the initiative card).
    #[serde(default = "zero")]
    pub initiative_token: String,
    /// `0`, `E2`, `N3`, or `off` (not on the track).
    #[serde(default = "zero")]
    pub momentum_token: String,
    #[serde(default)]
    pub momentum_cards: BySide<u8>,
    #[serde(default)]
    pub momentum_removed: u8,
    /// Default: every momentum token not placed elsewhere.
    #[serde(default)]
    pub momentum_supply: Option<u8>,
    #[serde(default)]
    pub track: Vec<TrackTokenDef>,
    #[serde(default)]
    pub board: Vec<BoardTokenDef>,
    /// Pinned pictures; the others are in the supply.
    #[serde(default)]
    pub pictures: Vec<PictureDef>,
    #[serde(default)]
    pub hands: BySide<Vec<String>>,
    /// Top card first.
    #[serde(default)]
    pub decks: BySide<Vec<String>>,
    #[serde(default)]
    pub discards: BySide<Vec<String>>,
    #[serde(default)]
    pub removed: Vec<String>,
    #[serde(default)]
    pub unlisted_cards: UnlistedDef,
    /// The bag, top (next drawn) first. Without it, every bag token not
    /// placed elsewhere is in the bag, shuffled with `seed`; with it, tokens
    /// not listed anywhere stay in the box.
    #[serde(default)]
    pub bag: Option<Vec<String>>,
    /// Restrictions in force this round (A brilliant mood).
    #[serde(default)]
    pub forbidden: Vec<ForbidDef>,
    /// Work in progress (a play, a running action, a pin…), outermost first:
    /// saved games use it; hand-written puzzles rarely need it.
    #[serde(default)]
    pub stack: Vec<FrameDef>,
    /// The generator's exact state (hex), as saved; otherwise seeded from `seed`.
    #[serde(default)]
    pub rng: Option<String>,
    /// Random events become decisions of `chance` (the solver's view).
    #[serde(default)]
    pub explicit_chance: bool,
    /// Card draws become decisions of `chance` too (the OpenSpiel game's view).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub explicit_deals: bool,
}

fn one() -> u16 {
    1
}
fn editor() -> Side {
    Side::Editor
}
fn zero() -> String {
    "0".into()
}

impl Default for PositionDef {
    fn default() -> Self {
        PositionDef {
            round: 1,
            phase: PhaseDef::Cards,
            initiative: Side::Editor,
            turn: None,
            turns_played: BySide::default(),
            initiative_token: zero(),
            momentum_token: zero(),
            momentum_cards: BySide::default(),
            momentum_removed: 0,
            momentum_supply: None,
            track: vec![],
            board: vec![],
            pictures: vec![],
            hands: BySide::default(),
            decks: BySide::default(),
            discards: BySide::default(),
            removed: vec![],
            unlisted_cards: UnlistedDef::Deck,
            bag: None,
            forbidden: vec![],
            stack: vec![],
            rng: None,
            explicit_chance: false,
            explicit_deals: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "TrackToken")]
pub struct TrackTokenDef {
    pub token: String,
    pub at: String,
    #[serde(default)]
    pub face_up: bool,
    /// Face down: the colours the Editor asked for in vain while it lay
    /// there (R5.6), which everyone knows it lacks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ruled_out: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "BoardToken")]
pub struct BoardTokenDef {
    pub space: String,
    pub token: String,
    #[serde(default)]
    pub face_up: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Picture")]
pub struct PictureDef {
    pub name: String,
    pub face_up: bool,
    /// The space it is on (must be its own informant space).
    #[serde(default)]
    pub space: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Forbid")]
pub struct ForbidDef {
    pub side: Side,
    pub part: Part,
    /// `event`, `conspirator`, `journalist`; empty means all.
    #[serde(default)]
    pub types: Vec<String>,
}

/// A play's stage, as saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Stage")]
pub enum StageDef {
    ChoosePart,
    ChooseTarget,
    Reveal(String),
    Locked(String),
    Window,
    Resolve,
    Running,
}

/// A frame of the engine's stack, as saved (see `state::Frame`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Frame")]
pub enum FrameDef {
    Setup {
        dealt: bool,
        /// With explicit deals: the cards of the deal chance has drawn.
        #[serde(default, skip_serializing_if = "is_zero")]
        cards_dealt: u8,
        evidence_left: u8,
    },
    Play {
        card: String,
        player: Side,
        #[serde(default)]
        part: Option<Part>,
        stage: StageDef,
        /// `initiative`, `momentum` or a track slot `ev2`.
        #[serde(default)]
        target: Option<String>,
        #[serde(default)]
        cancelled: Option<Dest>,
        #[serde(default)]
        reacting_to: Option<u8>,
        #[serde(default)]
        dest: Option<Dest>,
    },
    Run {
        program: ProgramDef,
        pc: u16,
        actor: Side,
        #[serde(default)]
        card: Option<String>,
        #[serde(default)]
        play: Option<u8>,
        #[serde(default)]
        done: u8,
        /// Track slots already picked by the running instruction.
        #[serde(default)]
        picked: Vec<String>,
        #[serde(default)]
        chosen: Option<String>,
    },
    Pin {
        token: String,
        pinner: Side,
    },
    Evaluation {
        step: u8,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Program")]
pub enum ProgramDef {
    /// The action of this card.
    Card(String),
    /// The instruction of this momentum space (0-based).
    Space(Side, u8),
    /// A program computed at play time.
    Program(Program),
}

/// What must hold after the choices. Every field is optional; lists are
/// compared as sets (order does not matter) unless said otherwise.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Expect")]
pub struct ExpectDef {
    #[serde(default)]
    pub winner: Option<Side>,
    #[serde(default)]
    pub cause: Option<WinCause>,
    /// `true`: the game is over; `false`: it goes on.
    #[serde(default)]
    pub over: Option<bool>,
    #[serde(default)]
    pub round: Option<u16>,
    #[serde(default)]
    pub phase: Option<String>,
    #[serde(default)]
    pub initiative: Option<Side>,
    #[serde(default)]
    pub turn: Option<Side>,
    #[serde(default)]
    pub initiative_token: Option<String>,
    #[serde(default)]
    pub momentum_token: Option<String>,
    #[serde(default)]
    pub momentum_cards: Option<BySide<u8>>,
    #[serde(default)]
    pub momentum_supply: Option<u8>,
    #[serde(default)]
    pub momentum_removed: Option<u8>,
    /// Every evidence token on the research track.
    #[serde(default)]
    pub track: Option<Vec<TrackTokenDef>>,
    /// Every evidence token on the board.
    #[serde(default)]
    pub board: Option<Vec<BoardTokenDef>>,
    /// Every pinned picture.
    #[serde(default)]
    pub pictures: Option<Vec<PictureDef>>,
    #[serde(default)]
    pub hands: Option<BySide<Vec<String>>>,
    #[serde(default)]
    pub hand_sizes: Option<BySide<u8>>,
    #[serde(default)]
    pub discards: Option<BySide<Vec<String>>>,
    #[serde(default)]
    pub removed: Option<Vec<String>>,
    /// Card places: `("nixon.gambit", "discard")`; places are `hand`, `deck`,
    /// `discard`, `removed`, `in play`.
    #[serde(default)]
    pub cards: Vec<(String, String)>,
    #[serde(default)]
    pub bag_size: Option<usize>,
    /// Who must decide next (`editor`, `nixon`, `chance`, or `none`).
    #[serde(default)]
    pub to_move: Option<String>,
    /// The exact options of the next decision, in choice notation.
    #[serde(default)]
    pub options: Option<Vec<String>>,
    #[serde(default)]
    pub options_include: Vec<String>,
    #[serde(default)]
    pub options_exclude: Vec<String>,
    /// Face-up informants connected to Nixon (R8.3).
    #[serde(default)]
    pub connected: Option<usize>,
    /// Restrictions in force this round.
    #[serde(default)]
    pub forbidden: Option<usize>,
    /// Cards each side has played this round (reactions count).
    #[serde(default)]
    pub turns_played: Option<BySide<u8>>,
    /// The bag's contents by kind (`["blue", "blue", "green*"]`; order does not matter).
    #[serde(default)]
    pub bag: Option<Vec<String>>,
    /// The evidence tokens in the box, outside the game (docs/open-questions.md#d4), by kind.
    #[serde(default)]
    pub reserve: Option<Vec<String>>,
    /// The top cards of each deck, top first: as many as listed (a side
    /// left out is not checked).
    #[serde(default)]
    pub deck_tops: Option<BySide<Vec<String>>>,
    #[serde(default)]
    pub deck_sizes: Option<BySide<u8>>,
    /// Exactly the events since the previous expectation (in order), in
    /// the event notation (`discarded editor.ben_bradlee`, `deck_reshuffled nixon`).
    #[serde(default)]
    pub events: Option<Vec<String>>,
    /// Events that must be among those since the previous expectation.
    #[serde(default)]
    pub events_include: Vec<String>,
    #[serde(default)]
    pub events_exclude: Vec<String>,
    /// What a side sees: checked on that side's view, not on the state.
    #[serde(default)]
    pub views: Vec<ViewExpectDef>,
}

/// What one side sees (R4.3, R5.14), checked on its `View`. Every field but
/// `side` is optional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "ViewExpect")]
pub struct ViewExpectDef {
    pub side: Side,
    /// The viewer's own hand.
    #[serde(default)]
    pub hand: Option<Vec<String>>,
    /// Every evidence token on the research track as the viewer sees it; a
    /// token whose kind is hidden from the viewer is written `?`.
    #[serde(default)]
    pub track: Option<Vec<TrackTokenDef>>,
    /// Track positions (`N2`) whose token's kind the viewer cannot see.
    #[serde(default)]
    pub hidden: Vec<String>,
    /// Track positions whose token's kind the viewer sees.
    #[serde(default)]
    pub shown: Vec<String>,
    #[serde(default)]
    pub board: Option<Vec<BoardTokenDef>>,
    #[serde(default)]
    pub hand_sizes: Option<BySide<u8>>,
    #[serde(default)]
    pub deck_sizes: Option<BySide<u8>>,
    #[serde(default)]
    pub bag_size: Option<usize>,
    #[serde(default)]
    pub discards: Option<BySide<Vec<String>>>,
    #[serde(default)]
    pub removed: Option<Vec<String>>,
    /// The viewer's options (empty: the decision is not the viewer's).
    #[serde(default)]
    pub options: Option<Vec<String>>,
    #[serde(default)]
    pub options_include: Vec<String>,
    #[serde(default)]
    pub options_exclude: Vec<String>,
}

/// A puzzle's claim, checked by `watergate solve`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Puzzle")]
pub struct PuzzleDef {
    /// Who is to move and must force the win.
    pub side: Side,
    /// The goal as stated to the player (default: the scenario's description).
    #[serde(default)]
    pub goal: String,
    /// The claim: `true` if `side` can force a win within the horizon.
    pub wins: bool,
    /// The horizon of the claim, in decisions (which ones count:
    /// `depth_counts`); default: the rest of the round.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Which decisions `depth` counts: `Every` decision (the opponent's and
    /// chance's too; the default, as `watergate solve --depth`) or only the
    /// side's `Own` (as `watergate mine --depth` writes them).
    #[serde(default, skip_serializing_if = "DepthCounts::is_every")]
    pub depth_counts: DepthCounts,
    /// The mechanism it exercises (one line; shown with the solution, since
    /// it gives the key away).
    #[serde(default)]
    pub theme: String,
    /// Why the solution works (and why the tempting moves fail), line by
    /// line: shown with the solution on `reveal`, never before.
    #[serde(default)]
    pub explanation: Vec<String>,
    /// The winning line as found and verified (choice notation). Kept out
    /// of sight: `watergate puzzle` shows it only on `reveal`.
    #[serde(default)]
    pub solution: Vec<String>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}
