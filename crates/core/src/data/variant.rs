//! House-rule variants: a small file naming only what it changes — the
//! game's numbers and settings, card fields, cards added or removed, and any
//! data file replaced (a script, the board, the tokens) — applied to the
//! base data before loading. Problems are reported in the variant file,
//! with its own positions.

use crate::data::raw::*;
use crate::data::srcmap::SourceMap;
use crate::data::{self, DataSet};
use crate::diag::{Diagnostic, Diagnostics};
use crate::game::model::{CardType, Colour, Side};
use crate::game::rules::Rules;
use crate::game::rules::{Overflow, Unpinnable};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Changes to `cards/game.ron`; every field optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Game")]
pub struct GamePatch {
    /// Replaces `hand_size_with_initiative` (R4.1).
    #[serde(default)]
    pub hand_size_with_initiative: Option<u8>,
    /// Replaces `hand_size_without_initiative` (R4.1).
    #[serde(default)]
    pub hand_size_without_initiative: Option<u8>,
    /// Replaces `evidence_per_round` (R4.2).
    #[serde(default)]
    pub evidence_per_round: Option<u8>,
    /// Replaces `track_length` (R1.3).
    #[serde(default)]
    pub track_length: Option<u8>,
    /// Replaces `momentum_tokens` (R1.4).
    #[serde(default)]
    pub momentum_tokens: Option<u8>,
    /// Replaces `momentum_on_track_at_start` (R2.3).
    #[serde(default)]
    pub momentum_on_track_at_start: Option<u8>,
    /// Replaces `momentum_to_win` (R8.1).
    #[serde(default)]
    pub momentum_to_win: Option<u8>,
    /// Replaces `informants_to_connect` (R8.3).
    #[serde(default)]
    pub informants_to_connect: Option<u8>,
    /// Replaces `first_initiative` (R2.2).
    #[serde(default)]
    pub first_initiative: Option<Side>,
}

/// Changes to the settings (the readings of docs/open-questions.md); every field optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Settings")]
pub struct SettingsPatch {
    /// Replaces `unpinnable_evidence` (Q1).
    #[serde(default)]
    pub unpinnable_evidence: Option<Unpinnable>,
    /// Replaces `named_colour_locked` (R5.6, R10.2).
    #[serde(default)]
    pub named_colour_locked: Option<bool>,
    /// Replaces `momentum_symbol_steps` (R7.6).
    #[serde(default)]
    pub momentum_symbol_steps: Option<u8>,
    /// Replaces `editor_momentum_overflow` (R7.3).
    #[serde(default)]
    pub editor_momentum_overflow: Option<Overflow>,
}

/// Changes to one card, named by id; every other field optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "CardPatch")]
pub struct CardPatch {
    /// The id of the card to change (`nixon.gambit`).
    pub id: String,
    /// Replaces the card's `number` (D1).
    #[serde(default)]
    pub number: Option<u16>,
    /// Replaces the card's `name`.
    #[serde(default)]
    pub name: Option<String>,
    /// Replaces the card's `value` (R5.3, D2).
    #[serde(default)]
    pub value: Option<u8>,
    /// Replaces the card's `colours` (R5.4, D2).
    #[serde(default)]
    pub colours: Option<Vec<Colour>>,
    /// Replaces the card's `type` (R1.7).
    #[serde(default, rename = "type")]
    pub card_type: Option<CardType>,
    /// Replaces the card's `steps` (D3).
    #[serde(default)]
    pub steps: Option<u8>,
    /// Replaces the card's `requirement` (R5.11).
    #[serde(default)]
    pub requirement: Option<RequirementDef>,
    /// Replaces the card's `action_text`.
    #[serde(default)]
    pub action_text: Option<String>,
    /// A script path of the data (possibly one this variant adds under `files`).
    #[serde(default)]
    pub script: Option<String>,
    /// Replaces the card's `quote`.
    #[serde(default)]
    pub quote: Option<String>,
}

/// Changes to one group of evidence tokens (`cards/tokens.ron`, D4), named
/// by its colours (in any order) and momentum symbol.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "TokenPatch")]
pub struct TokenPatch {
    /// The group's colours, one or two, in any order.
    pub colours: Vec<Colour>,
    /// Whether the group's tokens show the momentum symbol (default: no).
    #[serde(default)]
    pub momentum_symbol: bool,
    /// The new number of these tokens in the bag at setup (R2.5).
    #[serde(default)]
    pub in_bag: Option<u8>,
    /// The new number of these tokens in the box (the reserve, D4).
    #[serde(default)]
    pub in_reserve: Option<u8>,
}

/// A variant file (docs/formats/variant.md): its name and the changes it
/// makes to the base data, every change optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Variant")]
pub struct VariantDef {
    /// The variant's name; a variant that changes the numbers or settings
    /// adds it to the game's name (`… — variant: <name>`).
    pub name: String,
    /// What the variant tests, in a line or two.
    #[serde(default)]
    pub description: String,
    /// Changes to the game's numbers (`cards/game.ron`).
    #[serde(default)]
    pub game: Option<GamePatch>,
    /// Changes to the settings (`cards/game.ron`'s `settings`).
    #[serde(default)]
    pub settings: Option<SettingsPatch>,
    /// Changes to cards, one entry per card.
    #[serde(default)]
    pub cards: Vec<CardPatch>,
    /// Evidence token counts to change, group by group (`cards/tokens.ron`
    /// rewritten with the new counts); `tokens` replaces the whole mix.
    #[serde(default)]
    pub token_counts: Vec<TokenPatch>,
    /// Card ids to take out of the game.
    #[serde(default)]
    pub remove_cards: Vec<String>,
    /// Card files (relative to this file) to add to the game.
    #[serde(default)]
    pub add_cards: Vec<String>,
    /// Data files to add or replace: (path in the data, file relative to
    /// this one), e.g. `("scripts/nixon/gambit.rhai", "gambit_v2.rhai")`
    /// or `("cards/board.ron", "small_board.ron")`.
    #[serde(default)]
    pub files: Vec<(String, String)>,
    /// The whole evidence board, written inline (replaces `cards/board.ron`).
    #[serde(default)]
    pub board: Option<BoardDef>,
    /// The whole token mix, written inline (replaces `cards/tokens.ron`).
    #[serde(default)]
    pub tokens: Option<TokensDef>,
}

/// A parsed variant file.
#[derive(Clone, Debug)]
pub struct Variant {
    /// What the file says.
    pub def: VariantDef,
    /// The file as diagnostics name it.
    pub display: String,
    /// The folder relative paths in it are resolved against (the file's own).
    pub dir: PathBuf,
    map: SourceMap,
}

impl Variant {
    /// Reads and parses the variant file at `path`; every problem, with its
    /// position, if it cannot.
    pub fn from_file(path: &Path) -> Result<Variant, Diagnostics> {
        let display = path.display().to_string();
        let text = data::read_text_file(path, "a UTF-8 RON variant file")?;
        Variant::from_text(
            &display,
            &text,
            path.parent().map(Path::to_path_buf).unwrap_or_default(),
        )
    }

    /// Parses `text`, a variant file named `display` in diagnostics whose
    /// relative paths are resolved against `dir`.
    pub fn from_text(display: &str, text: &str, dir: PathBuf) -> Result<Variant, Diagnostics> {
        let def = data::parse_ron_all::<VariantDef>(display, text)?;
        Ok(Variant {
            def,
            display: display.to_string(),
            dir,
            map: SourceMap::build(text),
        })
    }

    /// Changes written inside another file (a scenario's `edits`): problems
    /// are reported in that file, `map` being its source map below the
    /// changes, and relative paths are resolved against `dir`.
    pub fn embedded(def: VariantDef, display: &str, dir: PathBuf, map: SourceMap) -> Variant {
        Variant {
            def,
            display: display.to_string(),
            dir,
            map,
        }
    }

    /// The files applying this variant reads (`add_cards`, `files`), each
    /// as the variant names it and joined to its folder, as `apply` joins
    /// them: what a server checks before letting a variant read anything.
    pub fn files_named(&self) -> Vec<(String, PathBuf)> {
        self.def
            .add_cards
            .iter()
            .chain(self.def.files.iter().map(|(_, file)| file))
            .map(|named| (named.clone(), self.dir.join(named)))
            .collect()
    }

    /// Entries that change nothing, which `apply` takes without a word:
    /// a card entry whose every field is what the card has already, a
    /// `requirement: None` (which in a variant means "no change", not "no
    /// requirement"), and a card removed twice. Advice for `check`.
    pub fn warnings(&self, base: &DataSet) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let card_file = card_files(base);
        for (i, patch) in self.def.cards.iter().enumerate() {
            if patch.requirement.is_none()
                && self.map.get(&format!("cards[{i}].requirement")).is_some()
            {
                out.push(self.at(
                    &format!("cards[{i}].requirement"),
                    "`requirement: None` changes nothing: in a variant, None means \"keep the card's\"; to drop the requirement, write `requirement: All([])` (an empty All always holds)",
                ));
            }
            let Some(Ok(card)) = card_file
                .get(&patch.id)
                .map(|rel| data::parse_file::<PlayerCardDef>(base, rel))
            else {
                continue;
            };
            let mut patched = card.def.clone();
            patch_card(&mut patched, patch);
            let only_id = CardPatch {
                id: patch.id.clone(),
                ..CardPatch::default()
            };
            if patched == card.def && *patch != only_id {
                out.push(self.at(
                    &format!("cards[{i}]"),
                    format!(
                        "this entry changes nothing: `{}` has these values already",
                        patch.id
                    ),
                ));
            }
        }
        for (i, id) in self.def.remove_cards.iter().enumerate() {
            if let Some(first) = self.def.remove_cards[..i].iter().position(|x| x == id) {
                out.push(self.at(
                    &format!("remove_cards[{i}]"),
                    format!("`{id}` is removed already, by remove_cards[{first}]"),
                ));
            }
        }
        out
    }

    /// A problem at the value `path` of this variant's file (`board.spaces[3].id`),
    /// or at its nearest ancestor the file has.
    pub fn at(&self, path: &str, message: impl Into<String>) -> Diagnostic {
        let (line, col) = self.map.locate(path);
        Diagnostic::new(&self.display, line, col, message)
    }

    /// The base data with this variant's changes, or every problem found in
    /// the variant (and in the data as it changes it).
    pub fn apply(&self, base: &DataSet) -> Result<DataSet, Diagnostics> {
        let mut ds = base.clone();
        let mut d = Diagnostics::default();
        // Which variant entry changed which data file, to report problems there.
        let mut origin: BTreeMap<String, String> = BTreeMap::new();
        // Files taken as they are from beside the variant: problems in them
        // keep their positions, under the file's own path.
        let mut copied: BTreeMap<String, String> = BTreeMap::new();

        let card_file = card_files(base);

        if self.def.game.is_some() || self.def.settings.is_some() {
            match data::parse_file::<GameDef>(base, crate::data::validate::GAME_FILE) {
                Ok(mut p) => {
                    if let Some(g) = &self.def.game {
                        patch_game(&mut p.def, g);
                    }
                    if let Some(s) = &self.def.settings {
                        patch_settings(&mut p.def.settings, s);
                    }
                    p.def.name = format!("{} — variant: {}", p.def.name, self.def.name);
                    let entry = if self.def.game.is_some() {
                        "game"
                    } else {
                        "settings"
                    };
                    write(
                        &mut ds,
                        crate::data::validate::GAME_FILE,
                        &p.def,
                        &mut origin,
                        entry,
                    );
                }
                Err(e) => d.extend(e),
            }
        }
        if let Some(b) = &self.def.board {
            write(
                &mut ds,
                crate::data::validate::BOARD_FILE,
                b,
                &mut origin,
                "board",
            );
        }
        if let Some(t) = &self.def.tokens {
            write(
                &mut ds,
                crate::data::validate::TOKENS_FILE,
                t,
                &mut origin,
                "tokens",
            );
        }
        for (i, patch) in self.def.cards.iter().enumerate() {
            let Some(rel) = card_file.get(&patch.id) else {
                d.push(self.at(
                    &format!("cards[{i}].id"),
                    unknown_card(&patch.id, &card_file),
                ));
                continue;
            };
            match data::parse_file::<PlayerCardDef>(base, rel) {
                Ok(mut p) => {
                    patch_card(&mut p.def, patch);
                    write(&mut ds, rel, &p.def, &mut origin, &format!("cards[{i}]"));
                }
                Err(e) => d.extend(e),
            }
        }
        if !self.def.token_counts.is_empty() {
            match data::parse_file::<TokensDef>(base, crate::data::validate::TOKENS_FILE) {
                Ok(mut p) => {
                    for (i, patch) in self.def.token_counts.iter().enumerate() {
                        let same = |g: &&mut EvidenceGroupDef| {
                            g.momentum_symbol == patch.momentum_symbol
                                && g.colours.len() == patch.colours.len()
                                && patch.colours.iter().all(|c| g.colours.contains(c))
                        };
                        match p.def.evidence.iter_mut().find(same) {
                            Some(g) => {
                                if let Some(n) = patch.in_bag {
                                    g.in_bag = n;
                                }
                                if let Some(n) = patch.in_reserve {
                                    g.in_reserve = n;
                                }
                            }
                            None => d.push(self.at(
                                &format!("token_counts[{i}].colours"),
                                format!(
                                    "no evidence group with colours {:?} and momentum_symbol: {} in the base data's `{}`",
                                    patch.colours,
                                    patch.momentum_symbol,
                                    crate::data::validate::TOKENS_FILE
                                ),
                            )),
                        }
                    }
                    write(
                        &mut ds,
                        crate::data::validate::TOKENS_FILE,
                        &p.def,
                        &mut origin,
                        "token_counts",
                    );
                }
                Err(e) => d.extend(e),
            }
        }
        for (i, id) in self.def.remove_cards.iter().enumerate() {
            match card_file.get(id) {
                Some(rel) => {
                    ds.files.remove(rel);
                    ds.shown.remove(rel);
                }
                None => {
                    d.push(self.at(&format!("remove_cards[{i}]"), unknown_card(id, &card_file)))
                }
            }
        }
        for (i, file) in self.def.add_cards.iter().enumerate() {
            let path = self.dir.join(file);
            match data::read_data_file(&path) {
                Ok(bytes) => {
                    let name = Path::new(file)
                        .file_name()
                        .map(|n| n.to_string_lossy().to_string())
                        .unwrap_or_default();
                    let rel = format!("cards/variant/{name}");
                    copied.insert(rel.clone(), path.display().to_string());
                    ds.shown.insert(rel.clone(), path.display().to_string());
                    ds.files.insert(rel, bytes);
                }
                Err(e) => d.push(self.at(&format!("add_cards[{i}]"), self.unread_named(&e))),
            }
        }
        for (i, (rel, file)) in self.def.files.iter().enumerate() {
            if let Some(problem) = data::source::data_path_problem(rel) {
                d.push(self.at(&format!("files[{i}][0]"), problem));
                continue;
            }
            let path = self.dir.join(file);
            match data::read_data_file(&path) {
                Ok(bytes) => {
                    copied.insert(rel.clone(), path.display().to_string());
                    ds.shown.insert(rel.clone(), path.display().to_string());
                    ds.files.insert(rel.clone(), bytes);
                }
                Err(e) => d.push(self.at(&format!("files[{i}][1]"), self.unread_named(&e))),
            }
        }
        if !d.is_empty() {
            return Err(d.sorted());
        }
        // Load once to find problems the changes create, and report them at
        // the variant entry that made them.
        match data::load(&ds) {
            Ok(_) => Ok(ds),
            Err(problems) => {
                let mut out = Diagnostics::default();
                // A problem in a file the variant left as it is (a shipped
                // script that writes to track space 2, on a variant's
                // one-space track) names that file, which the user may
                // have no copy of: when the base game has no problem, the
                // message says which of the variant's entries to look at.
                let base_loads = data::load(base).is_ok();
                for mut p in problems.0 {
                    if let Some(real) = copied
                        .iter()
                        .find(|(rel, _)| p.path == ds.display_path(rel) || p.path == **rel)
                        .map(|(_, real)| real.clone())
                    {
                        p.path = real;
                        out.push(p);
                        continue;
                    }
                    let rel = origin
                        .keys()
                        .find(|rel| p.path == ds.display_path(rel) || p.path == **rel)
                        .cloned();
                    match rel.and_then(|r| origin.get(&r).map(|e| (r.clone(), e.clone()))) {
                        Some((rel, entry)) => {
                            // Point at the very field the variant set, if it set it.
                            let text = ds
                                .files
                                .get(&rel)
                                .map(|b| String::from_utf8_lossy(b).to_string())
                                .unwrap_or_default();
                            let field = SourceMap::build(&text).path_at(p.line, p.col);
                            let here = field
                                .iter()
                                .flat_map(|f| [format!("{entry}.{f}"), f.clone()])
                                .find(|path| self.map.get(path).is_some())
                                .unwrap_or(entry);
                            out.push(self.at(
                                &here,
                                format!("`{rel}` as changed by this variant: {}", p.message),
                            ))
                        }
                        // A card of the variant's own that takes a base
                        // card's id or number is reported in the variant's
                        // file, naming the base card; the same report at
                        // the base card, a file the user may have no copy
                        // of, would only say it again.
                        None if copied
                            .values()
                            .any(|real| p.message.ends_with(&format!(": also used by {real}"))) => {
                        }
                        None => {
                            if base_loads {
                                p.message.push_str(&format!(
                                    " (`{}` is the base game's, unchanged by {}, and the base game loads without this problem: it comes from the variant's {})",
                                    p.path,
                                    self.display,
                                    self.entries_set()
                                ));
                            }
                            out.push(p)
                        }
                    }
                }
                Err(out.sorted())
            }
        }
    }

    /// The rules with this variant applied to `base`.
    pub fn rules(&self, base: &DataSet) -> Result<Rules, Diagnostics> {
        let ds = self.apply(base)?;
        data::load(&ds)
    }
}

impl Variant {
    /// The variant's top-level entries that change something, each with
    /// its line and column (`` `game` (line 3, column 5) ``), joined in
    /// words: where to look for the cause of a problem in a file the
    /// variant did not change.
    fn entries_set(&self) -> String {
        let d = &self.def;
        let set = [
            ("game", d.game.is_some()),
            ("settings", d.settings.is_some()),
            ("board", d.board.is_some()),
            ("tokens", d.tokens.is_some()),
            ("cards", !d.cards.is_empty()),
            ("token_counts", !d.token_counts.is_empty()),
            ("remove_cards", !d.remove_cards.is_empty()),
            ("add_cards", !d.add_cards.is_empty()),
            ("files", !d.files.is_empty()),
        ];
        let named: Vec<String> = set
            .iter()
            .filter(|(_, is_set)| *is_set)
            .map(|(entry, _)| match self.map.get(entry) {
                Some((line, col)) => format!("`{entry}` (line {line}, column {col})"),
                None => format!("`{entry}`"),
            })
            .collect();
        match named.as_slice() {
            [] => "changes".to_string(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// A file the variant names that was not read, in the variant's words.
    /// A missing file's message says where names are looked for: beside
    /// the variant, not in the current folder nor in the data folder.
    fn unread_named(&self, e: &data::ReadError) -> String {
        match e {
            data::ReadError::Io(p, e) if e.kind() == std::io::ErrorKind::NotFound => {
                let folder = match self.dir.as_os_str().is_empty() {
                    true => ".".to_string(),
                    false => self.dir.display().to_string(),
                };
                format!(
                    "cannot read `{}`: {e}; a variant names its files relative to its own folder, `{folder}`",
                    p.display()
                )
            }
            data::ReadError::Io(p, e) => format!("cannot read `{}`: {e}", p.display()),
            other => format!("`{}`: {}", other.path().display(), other.reason()),
        }
    }
}

fn unknown_card(id: &str, known: &BTreeMap<String, String>) -> String {
    let mut close: Vec<(usize, &String)> = known
        .keys()
        .map(|k| (crate::diag::edit_distance(id, k), k))
        .filter(|(d, _)| *d <= (id.len() / 4).max(2))
        .collect();
    close.sort();
    match close.first() {
        Some((_, k)) => format!("no card `{id}` in the base data; did you mean `{k}`?"),
        None => format!("no card `{id}` in the base data: expected a card id like `nixon.gambit` (see `watergate cards`)"),
    }
}

fn write<T: Serialize>(
    ds: &mut DataSet,
    rel: &str,
    def: &T,
    origin: &mut BTreeMap<String, String>,
    entry: &str,
) {
    let text = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .to_string_pretty(def, ron::ser::PrettyConfig::default().struct_names(true))
        .unwrap_or_default();
    ds.files.insert(rel.to_string(), text.into_bytes());
    // Written anew from the variant's fields: no longer the file it was.
    ds.shown.remove(rel);
    origin.insert(rel.to_string(), entry.to_string());
}

fn patch_game(g: &mut GameDef, p: &GamePatch) {
    macro_rules! set {
        ($($f:ident),*) => { $( if let Some(v) = &p.$f { g.$f = v.clone(); } )* };
    }
    set!(
        hand_size_with_initiative,
        hand_size_without_initiative,
        evidence_per_round,
        track_length,
        momentum_tokens,
        momentum_on_track_at_start,
        momentum_to_win,
        informants_to_connect,
        first_initiative
    );
}

fn patch_settings(s: &mut SettingsDef, p: &SettingsPatch) {
    if let Some(v) = p.unpinnable_evidence {
        s.unpinnable_evidence = v;
    }
    if let Some(v) = p.named_colour_locked {
        s.named_colour_locked = v;
    }
    if let Some(v) = p.momentum_symbol_steps {
        s.momentum_symbol_steps = v;
    }
    if let Some(v) = p.editor_momentum_overflow {
        s.editor_momentum_overflow = v;
    }
}

/// The player cards' files of `base`, by card id.
fn card_files(base: &DataSet) -> BTreeMap<String, String> {
    let mut card_file = BTreeMap::new();
    for rel in base.files.keys() {
        let is_card = rel.starts_with("cards/")
            && rel.ends_with(".ron")
            && rel.matches('/').count() >= 2
            && !rel.starts_with("cards/momentum/");
        if is_card {
            if let Ok(p) = data::parse_file::<PlayerCardDef>(base, rel) {
                card_file.insert(p.def.id.clone(), rel.clone());
            }
        }
    }
    card_file
}

fn patch_card(c: &mut PlayerCardDef, p: &CardPatch) {
    if let Some(v) = p.number {
        c.number = v;
    }
    if let Some(v) = &p.name {
        c.name = v.clone();
    }
    if let Some(v) = p.value {
        c.value = v;
    }
    if let Some(v) = &p.colours {
        c.colours = v.clone();
    }
    if let Some(v) = p.card_type {
        c.card_type = v;
    }
    if let Some(v) = p.steps {
        c.steps = Some(v);
    }
    if let Some(v) = &p.requirement {
        c.requirement = Some(v.clone());
    }
    if let Some(v) = &p.action_text {
        c.action_text = v.clone();
    }
    if let Some(v) = &p.script {
        c.script = v.clone();
    }
    if let Some(v) = &p.quote {
        c.quote = v.clone();
    }
}
