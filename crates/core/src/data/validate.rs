//! Stage two of loading: raw definitions → runtime [`Rules`]. References
//! must resolve (scripts exist and compile, informants named on cards exist
//! on the board), the board graph must be sound (every informant can reach
//! Nixon) and the counts must add up. Every problem is collected, so one run
//! of `watergate check` shows them all.

use super::raw::*;
use super::{parse_file, text_of, DataSet, Parsed};
use crate::diag::{Diagnostic, Diagnostics};
use crate::game::host::CardContext;
use crate::game::model::*;
use crate::game::program::TypeMask;
use crate::game::rules::*;
use crate::game::wording::clipped;
use crate::script::RhaiHost;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

/// The game's numbers and settings, relative to the data root.
pub const GAME_FILE: &str = "cards/game.ron";
/// The picture tiles and evidence tokens, relative to the data root.
pub const TOKENS_FILE: &str = "cards/tokens.ron";
/// The evidence board, relative to the data root.
pub const BOARD_FILE: &str = "cards/board.ron";
/// The folder of the two momentum cards, relative to the data root.
pub const MOMENTUM_DIR: &str = "cards/momentum/";

/// Ids are bytes; this bounds every list the data may define.
const MAX_ITEMS: usize = 250;

/// Checks a whole data set and builds the rules from it, or reports every
/// problem found, sorted (stage two of loading; `data::load` calls it).
pub fn validate(ds: &DataSet) -> Result<Rules, Diagnostics> {
    let mut d = Diagnostics::default();
    for (rel, why) in &ds.unread {
        d.push(Diagnostic::unread(ds.display_path(rel), why.clone()));
    }
    let files = parse_all(ds, &mut d);
    // A game file that did not parse leaves the others to check: what
    // depends on it is skipped (the pictures of tokens.ron name the
    // informants of the board and the cards; the scripts are run only on a
    // whole game), never guessed.
    let numbers = files.game.as_ref().and_then(|g| check_game(g, &mut d));
    let (pictures, evidence) = match &files.tokens {
        Some(t) => check_tokens(t, &mut d),
        None => (Vec::new(), Vec::new()),
    };
    let known = files.tokens.is_some().then_some(pictures.as_slice());
    let board_rt = match (&files.board, &files.tokens) {
        (Some(b), Some(tokens)) => check_board(b, tokens, &pictures, &mut d),
        _ => None,
    };
    if let (Some(game), Some(_)) = (&files.game, known) {
        check_informants_to_connect(game, numbers.as_ref(), pictures.len(), &mut d);
    }

    let mut scripts = Scripts::new(ds, &pictures);
    let mut seen = Seen::default();
    let (runtime_cards, card_units) =
        player_cards(ds, &files.cards, known, &mut scripts, &mut seen, &mut d);
    let (mcards, space_units) = momentum_cards(ds, &files, &mut scripts, &mut seen, &mut d);
    if let Some(game) = &files.game {
        check_momentum_to_win(game, numbers.as_ref(), &mcards, &mut d);
    }
    // Every script compiles, named by a card that parsed or not: an
    // unknown function is reported with the rest.
    scripts.compile_the_rest(&mut d);
    let (Some(game), Some(_), Some(_)) = (&files.game, &files.tokens, &files.board) else {
        return Err(d.sorted());
    };

    // Run each script once: a script that reads no game state yields its
    // program now, and the program is reused at every play. The scripts
    // read the rules as far as they are known (placeholders elsewhere).
    let partial = Rules {
        name: String::new(),
        numbers: numbers.clone().unwrap_or_else(placeholder_numbers),
        settings: settings_of(&game.def.settings),
        cards: runtime_cards,
        momentum_cards: BySide::from_fn(placeholder_momentum),
        board: board_rt
            .clone()
            .unwrap_or_else(|| Board::new(vec![], vec![], SpaceId(0), vec![])),
        evidence: evidence.clone(),
        pictures: pictures.clone(),
        scripts: std::sync::Arc::new(RhaiHost::new(vec![])),
        fingerprint: 0,
        contexts: Default::default(),
        traits: Default::default(),
        token_colours: Default::default(),
        start: Default::default(),
    };
    let host = scripts.host;
    let actions: Vec<Option<Action>> = card_units
        .iter()
        .enumerate()
        .map(|(i, (unit, p))| {
            let ctx = partial.card_context(CardId(i as u8));
            let who = format!("card `{}`", clipped(&p.def.name));
            unit.and_then(|u| probe(&host, u, &ctx, &who, &mut d))
        })
        .collect();
    let space_actions: Vec<Option<Action>> = space_units
        .iter()
        .map(|(side, i, unit, p)| {
            let ctx = partial.space_context_named(*side, *i, &p.def.id, &p.def.name);
            let who = format!("{} space {}", clipped(&p.def.name), i + 1);
            unit.and_then(|u| probe(&host, u, &ctx, &who, &mut d))
        })
        .collect();

    if !d.is_empty() {
        return Err(d.sorted());
    }
    let (
        Some(numbers),
        Some(board_rt),
        BySide {
            editor: Some(editor_mc),
            nixon: Some(nixon_mc),
        },
    ) = (numbers, board_rt, mcards)
    else {
        return Err(d.sorted());
    };
    let mut momentum_cards = BySide::new(editor_mc, nixon_mc);
    let mut cards_rt = partial.cards;
    for ((c, a), (unit, _)) in cards_rt.iter_mut().zip(actions).zip(&card_units) {
        if let Some(a) = a {
            c.action = a;
        }
        c.unit = unit.unwrap_or(0);
    }
    for ((side, i, unit, _), a) in space_units.iter().zip(space_actions) {
        let space = &mut momentum_cards[*side].spaces[*i];
        space.action = a;
        space.unit = *unit;
    }
    // Sort cards by side then number so CardIds are stable and readable.
    // Card programs were probed with contexts in file order; they do not
    // embed card ids, so sorting afterwards is safe.
    cards_rt.sort_by_key(|c| (c.side, c.number));
    let rules = Rules {
        name: game.def.name.clone(),
        numbers,
        settings: settings_of(&game.def.settings),
        cards: cards_rt,
        momentum_cards,
        board: board_rt,
        evidence,
        pictures,
        scripts: std::sync::Arc::new(host),
        fingerprint: ds.fingerprint(),
        contexts: Default::default(),
        traits: Default::default(),
        token_colours: Default::default(),
        start: Default::default(),
    };
    Ok(rules.with_caches())
}

/// Every data file, parsed (those that failed to parse are reported and left out).
struct Files {
    game: Option<Parsed<GameDef>>,
    tokens: Option<Parsed<TokensDef>>,
    board: Option<Parsed<BoardDef>>,
    momentum: Vec<Parsed<MomentumCardDef>>,
    /// A momentum card's file did not parse (its error is reported): a
    /// side without a card is then that error's consequence, not news.
    momentum_unparsed: bool,
    cards: Vec<Parsed<PlayerCardDef>>,
}

/// Parses the three game files, the momentum cards and the player cards;
/// any other file directly in `cards/` is reported.
fn parse_all(ds: &DataSet, d: &mut Diagnostics) -> Files {
    let game = keep(d, parse_file::<GameDef>(ds, GAME_FILE));
    let tokens = keep(d, parse_file::<TokensDef>(ds, TOKENS_FILE));
    let board = keep(d, parse_file::<BoardDef>(ds, BOARD_FILE));

    let mut momentum_files = Vec::new();
    let mut card_files = Vec::new();
    for rel in ds.files.keys() {
        let Some(rest) = rel.strip_prefix("cards/") else {
            continue;
        };
        if !rel.ends_with(".ron") {
            continue;
        }
        if rel.starts_with(MOMENTUM_DIR) {
            momentum_files.push(rel.clone());
        } else if rest.contains('/') {
            card_files.push(rel.clone());
        } else if ![GAME_FILE, TOKENS_FILE, BOARD_FILE].contains(&rel.as_str()) {
            d.push(Diagnostic::file(
                ds.display_path(rel),
                "unexpected file: `cards/` holds game.ron, tokens.ron, board.ron, momentum/ and one folder of card files per side",
            ));
        }
    }
    let momentum: Vec<_> = momentum_files
        .iter()
        .filter_map(|rel| keep(d, parse_file(ds, rel)))
        .collect();
    let momentum_unparsed = momentum.len() < momentum_files.len();
    let cards = card_files
        .iter()
        .filter_map(|rel| keep(d, parse_file(ds, rel)))
        .collect();
    Files {
        game,
        tokens,
        board,
        momentum,
        momentum_unparsed,
        cards,
    }
}

fn check_informants_to_connect(
    game: &Parsed<GameDef>,
    numbers: Option<&Numbers>,
    pictures: usize,
    d: &mut Diagnostics,
) {
    if let Some(n) = numbers {
        if n.informants_to_connect as usize > pictures {
            d.push(game.at(
                "informants_to_connect",
                format!(
                    "informants_to_connect is {} but there are only {pictures} pictures in {TOKENS_FILE}",
                    n.informants_to_connect,
                ),
            ));
        }
    }
}

fn check_momentum_to_win(
    game: &Parsed<GameDef>,
    numbers: Option<&Numbers>,
    mcards: &BySide<Option<MomentumCard>>,
    d: &mut Diagnostics,
) {
    if let (Some(n), Some(nixon)) = (numbers, &mcards.nixon) {
        if (nixon.spaces.len() as u8) < n.momentum_to_win {
            d.push(game.at(
                "momentum_to_win",
                format!(
                    "momentum_to_win is {} but Nixon's momentum card has only {} spaces",
                    n.momentum_to_win,
                    nixon.spaces.len()
                ),
            ));
        }
    }
}

/// The card scripts, each compiled once however many cards name it.
struct Scripts<'a> {
    ds: &'a DataSet,
    host: RhaiHost,
    units: HashMap<String, Option<usize>>,
}

impl<'a> Scripts<'a> {
    fn new(ds: &'a DataSet, pictures: &[Picture]) -> Scripts<'a> {
        let names = pictures.iter().map(|p| p.name.clone()).collect();
        Scripts {
            ds,
            host: RhaiHost::new(names),
            units: HashMap::new(),
        }
    }

    /// The compiled unit of script `rel`, or `None` (its problems reported;
    /// a missing file is reported where the card names it). `who` is the
    /// card that names it (`card \`Gordon Liddy\``), which its problems
    /// name first, as a failure when it runs does.
    fn compile(&mut self, d: &mut Diagnostics, rel: &str, who: &str) -> Option<usize> {
        if let Some(u) = self.units.get(rel) {
            return *u;
        }
        if !self.ds.files.contains_key(rel) {
            self.units.insert(rel.to_string(), None);
            return None;
        }
        let u = match text_of(self.ds, rel) {
            Ok(text) => match self.host.compile(rel, &self.ds.display_path(rel), &text) {
                Ok(u) => Some(u),
                Err(problems) => {
                    for mut p in problems {
                        p.message = format!("{who}: {}", p.message);
                        d.push(p);
                    }
                    None
                }
            },
            Err(e) => {
                d.push(e);
                None
            }
        };
        self.units.insert(rel.to_string(), u);
        u
    }

    /// Compiles every script of the data no card compiled (named by a card
    /// file that did not parse, or by none), in a host of its own so the
    /// game's units stay those the cards name: their problems are
    /// reported, the units dropped.
    fn compile_the_rest(&mut self, d: &mut Diagnostics) {
        let rest: Vec<&String> = self
            .ds
            .files
            .keys()
            .filter(|rel| rel.starts_with("scripts/") && rel.ends_with(".rhai"))
            .filter(|rel| !self.units.contains_key(rel.as_str()))
            .collect();
        if rest.is_empty() {
            return;
        }
        let mut host = RhaiHost::new(Vec::new());
        for rel in rest {
            match text_of(self.ds, rel) {
                Ok(text) => {
                    if let Err(problems) = host.compile(rel, &self.ds.display_path(rel), &text) {
                        for p in problems {
                            d.push(p);
                        }
                    }
                }
                Err(e) => d.push(e),
            }
        }
    }

    /// Compiles the script a card file names at `field`, reporting a missing file there.
    fn compile_named<T>(
        &mut self,
        d: &mut Diagnostics,
        (p, who): (&Parsed<T>, &str),
        field: &str,
        rel: &str,
    ) -> Option<usize> {
        let unit = self.compile(d, rel, who);
        let refused = self.ds.unread.contains_key(rel);
        if unit.is_none() && !self.ds.files.contains_key(rel) && !refused {
            let hint = match self.closest_script(rel) {
                Some(near) => format!(" (did you mean `{near}`?)"),
                None => String::new(),
            };
            d.push(p.at(field, format!("no script file `{rel}` in the data{hint}")));
        }
        unit
    }

    /// The script file of the data nearest to `rel` when it is a likely
    /// misspelling (a few letters apart, as the notation's hints count).
    fn closest_script(&self, rel: &str) -> Option<&str> {
        (self.ds.files.keys())
            .filter(|k| k.ends_with(".rhai"))
            .map(|k| (crate::diag::edit_distance(rel, k), k.as_str()))
            .filter(|(d, _)| *d <= 2.max(rel.len() / 8))
            .min()
            .map(|(_, k)| k)
    }
}

/// Card ids and numbers already used, each with where it was written:
/// they are unique across player and momentum cards.
#[derive(Default)]
struct Seen {
    ids: HashMap<String, (String, Diagnostic)>,
    numbers: HashMap<u16, (String, Diagnostic)>,
}

impl Seen {
    /// A duplicate is reported in both files, each naming the other: the
    /// loader cannot tell which one the designer edited, and a report in
    /// the untouched file only sends them to the wrong place.
    fn check<T>(&mut self, p: &Parsed<T>, id: &str, number: u16, d: &mut Diagnostics) {
        if let Some(first) = Self::first_use(&mut self.ids, id.to_string(), p, "id") {
            Self::report(p, "id", &format!("duplicate card id `{id}`"), first, d);
        }
        if let Some(first) = Self::first_use(&mut self.numbers, number, p, "number") {
            Self::report(
                p,
                "number",
                &format!("duplicate card number {number}"),
                first,
                d,
            );
        }
    }

    /// The earlier use of `key` (file and place), or `None` after noting
    /// this one as the first.
    fn first_use<K: std::hash::Hash + Eq, T>(
        seen: &mut HashMap<K, (String, Diagnostic)>,
        key: K,
        p: &Parsed<T>,
        field: &str,
    ) -> Option<(String, Diagnostic)> {
        match seen.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => Some(e.get().clone()),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert((p.display.clone(), p.at(field, "")));
                None
            }
        }
    }

    fn report<T>(
        p: &Parsed<T>,
        field: &str,
        what: &str,
        (other, mut there): (String, Diagnostic),
        d: &mut Diagnostics,
    ) {
        there.message = format!("{what}: also used by {}", p.display);
        d.push(there);
        d.push(p.at(field, format!("{what}: also used by {other}")));
    }
}

/// A player card's compiled script unit (if it compiled), with its file.
type CardUnit<'p> = (Option<usize>, &'p Parsed<PlayerCardDef>);

/// The player cards, in file order, each with its script compiled.
fn player_cards<'p>(
    ds: &DataSet,
    cards: &'p [Parsed<PlayerCardDef>],
    pictures: Option<&[Picture]>,
    scripts: &mut Scripts,
    seen: &mut Seen,
    d: &mut Diagnostics,
) -> (Vec<Card>, Vec<CardUnit<'p>>) {
    let mut runtime_cards = Vec::new();
    let mut card_units = Vec::new();
    if cards.len() > MAX_ITEMS {
        d.push(Diagnostic::unread(
            ds.display_path("cards"),
            format!(
                "{} player cards: at most {MAX_ITEMS} are supported",
                cards.len()
            ),
        ));
    }
    for p in cards {
        seen.check(p, &p.def.id, p.def.number, d);
        if let Some(rt) = check_card(p, pictures, d) {
            // Named as the probe below and a failure at play name it.
            let who = format!("card `{}`", clipped(&p.def.name));
            let unit = scripts.compile_named(d, (p, &who), "script", &p.def.script);
            runtime_cards.push(rt);
            card_units.push((unit, p));
        }
    }
    for side in Side::BOTH {
        let n = runtime_cards
            .iter()
            .filter(|c: &&Card| c.side == side)
            .count();
        if n == 0 {
            d.push(Diagnostic::unread(
                ds.display_path("cards"),
                format!("no player cards for {side}: each side needs a deck"),
            ));
        } else if n > MAX_CARDS_A_SIDE {
            d.push(Diagnostic::unread(
                ds.display_path("cards"),
                format!(
                    "{n} player cards for {side}: at most {MAX_CARDS_A_SIDE} a side are supported"
                ),
            ));
        }
    }
    (runtime_cards, card_units)
}

/// A momentum space's script: its side, its space index, its compiled unit
/// (if it compiled) and the card's file.
type SpaceUnit<'p> = (Side, usize, Option<usize>, &'p Parsed<MomentumCardDef>);

/// The momentum cards, one per side, each space's script compiled.
fn momentum_cards<'p>(
    ds: &DataSet,
    files: &'p Files,
    scripts: &mut Scripts,
    seen: &mut Seen,
    d: &mut Diagnostics,
) -> (BySide<Option<MomentumCard>>, Vec<SpaceUnit<'p>>) {
    let mut mcards: BySide<Option<MomentumCard>> = BySide::default();
    let mut space_units = Vec::new();
    for p in &files.momentum {
        let m = &p.def;
        seen.check(p, &m.id, m.number, d);
        check_name_length(p, "name", &m.name, d);
        if mcards[m.side].is_some() {
            d.push(p.at(
                "side",
                format!(
                    "a second momentum card for {}: expected one per side",
                    m.side
                ),
            ));
            continue;
        }
        if m.spaces.is_empty() || m.spaces.len() > 20 {
            d.push(p.at(
                "spaces",
                format!("{} spaces: expected 1 to 20", m.spaces.len()),
            ));
        }
        let mut spaces = Vec::new();
        for (i, s) in m.spaces.iter().enumerate() {
            if let Some(script) = &s.script {
                let who = format!("{} space {}", clipped(&m.name), i + 1);
                let field = format!("spaces[{i}].script");
                let unit = scripts.compile_named(d, (p, &who), &field, script);
                space_units.push((m.side, i, unit, p));
            }
            spaces.push(MomentumSpace {
                title: s.title.clone(),
                text: s.text.clone(),
                script: s.script.clone(),
                action: None,
                unit: None,
            });
        }
        mcards[m.side] = Some(MomentumCard {
            id: m.id.clone(),
            number: m.number,
            name: m.name.clone(),
            side: m.side,
            spaces,
            file: p.rel.clone(),
            placeholders: m.provenance.placeholders.clone(),
        });
    }
    for side in Side::BOTH {
        if mcards[side].is_none() && !files.momentum_unparsed {
            d.push(Diagnostic::unread(
                ds.display_path(MOMENTUM_DIR.trim_end_matches('/')),
                format!(
                    "no momentum card for {side}: expected one RON file per side in {MOMENTUM_DIR}"
                ),
            ));
        }
    }
    (mcards, space_units)
}

/// Runs a script once: its program if it reads no game state, or a
/// dynamic action to run at each play; `None` (reported) if it fails.
fn probe(
    host: &RhaiHost,
    unit: usize,
    ctx: &CardContext,
    who: &str,
    d: &mut Diagnostics,
) -> Option<Action> {
    match host.run(unit, ctx, None) {
        Ok((program, false)) => Some(Action::Static(program)),
        Ok((_, true)) => Some(Action::Dynamic { unit }),
        Err(f) => {
            d.push(Diagnostic::new(
                &host.units[unit].display,
                f.line.max(1),
                f.col.max(1),
                format!("{who}: {}", f.message),
            ));
            None
        }
    }
}

fn keep<T>(d: &mut Diagnostics, r: Result<T, Diagnostics>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            d.extend(e);
            None
        }
    }
}

/// The longest side of the track the loader accepts (R1.3).
const MAX_TRACK_LENGTH: u8 = 10;

/// Numbers standing in for a `game.ron` that failed (its problems are
/// reported); they reach only the checks of the other files.
fn placeholder_numbers() -> Numbers {
    Numbers {
        hand_size_with_initiative: 0,
        hand_size_without_initiative: 0,
        evidence_per_round: 0,
        // The longest track allowed, so that a script's `space` is not
        // called past the end of a track the data never set.
        track_length: MAX_TRACK_LENGTH as i8,
        momentum_tokens: 0,
        momentum_on_track_at_start: 0,
        momentum_to_win: 1,
        informants_to_connect: 1,
        first_initiative: Side::Editor,
    }
}

fn placeholder_momentum(side: Side) -> MomentumCard {
    MomentumCard {
        id: String::new(),
        number: 0,
        name: String::new(),
        side,
        spaces: vec![],
        file: String::new(),
        placeholders: vec![],
    }
}

fn settings_of(s: &SettingsDef) -> Settings {
    Settings {
        unpinnable_evidence: s.unpinnable_evidence,
        named_colour_locked: s.named_colour_locked,
        momentum_symbol_steps: s.momentum_symbol_steps,
        editor_momentum_overflow: s.editor_momentum_overflow,
    }
}

fn range(
    p: &Parsed<GameDef>,
    d: &mut Diagnostics,
    field: &str,
    v: u8,
    lo: u8,
    hi: u8,
    what: &str,
) -> bool {
    if v < lo || v > hi {
        d.push(p.at(
            field,
            format!("{field} is {v}: expected {lo} to {hi} ({what})"),
        ));
        false
    } else {
        true
    }
}

fn check_game(p: &Parsed<GameDef>, d: &mut Diagnostics) -> Option<Numbers> {
    let g = &p.def;
    let mut ok = true;
    ok &= range(
        p,
        d,
        "hand_size_with_initiative",
        g.hand_size_with_initiative,
        1,
        20,
        "cards drawn, R4.1",
    );
    ok &= range(
        p,
        d,
        "hand_size_without_initiative",
        g.hand_size_without_initiative,
        1,
        20,
        "cards drawn, R4.1",
    );
    ok &= range(
        p,
        d,
        "evidence_per_round",
        g.evidence_per_round,
        0,
        20,
        "tokens drawn, R4.2",
    );
    ok &= range(
        p,
        d,
        "track_length",
        g.track_length,
        1,
        MAX_TRACK_LENGTH,
        "spaces on each side, R1.3",
    );
    let tokens_ok = range(p, d, "momentum_tokens", g.momentum_tokens, 1, 50, "R1.4");
    ok &= tokens_ok;
    ok &= range(p, d, "momentum_to_win", g.momentum_to_win, 1, 20, "R8.1");
    ok &= range(
        p,
        d,
        "informants_to_connect",
        g.informants_to_connect,
        1,
        20,
        "R8.3",
    );
    ok &= range(
        p,
        d,
        "settings.momentum_symbol_steps",
        g.settings.momentum_symbol_steps,
        0,
        10,
        "R7.6",
    );
    // Compared only with a count in range: `momentum_tokens: 0` is one
    // problem, reported where it is written, not a second one at a field
    // the designer did not touch.
    if tokens_ok && g.momentum_on_track_at_start > g.momentum_tokens {
        d.push(p.at(
            "momentum_on_track_at_start",
            format!(
                "momentum_on_track_at_start is {} but there are only {} momentum tokens",
                g.momentum_on_track_at_start, g.momentum_tokens
            ),
        ));
        ok = false;
    }
    if g.momentum_on_track_at_start > 1 {
        d.push(p.at(
            "momentum_on_track_at_start",
            "expected 0 or 1: the research track holds one momentum token at a time (R2.3)",
        ));
        ok = false;
    }
    ok.then_some(Numbers {
        hand_size_with_initiative: g.hand_size_with_initiative,
        hand_size_without_initiative: g.hand_size_without_initiative,
        evidence_per_round: g.evidence_per_round,
        track_length: g.track_length as i8,
        momentum_tokens: g.momentum_tokens,
        momentum_on_track_at_start: g.momentum_on_track_at_start,
        momentum_to_win: g.momentum_to_win,
        informants_to_connect: g.informants_to_connect,
        first_initiative: g.first_initiative,
    })
}

fn check_tokens(p: &Parsed<TokensDef>, d: &mut Diagnostics) -> (Vec<Picture>, Vec<EvidenceToken>) {
    let t = &p.def;
    let mut pictures = Vec::new();
    let mut names = HashSet::new();
    if t.pictures.is_empty() {
        d.push(p.at(
            "pictures",
            "no pictures: expected the informants' picture tiles (R1.4)",
        ));
    }
    for (i, pic) in t.pictures.iter().enumerate() {
        if pic.name.trim().is_empty() {
            d.push(p.at(&format!("pictures[{i}].name"), "empty name"));
        }
        check_name_length(p, &format!("pictures[{i}].name"), &pic.name, d);
        if !names.insert(pic.name.to_ascii_lowercase()) {
            d.push(p.at(
                &format!("pictures[{i}].name"),
                format!("duplicate picture `{}`", clipped(&pic.name)),
            ));
        }
        pictures.push(Picture {
            name: pic.name.clone(),
            full_name: pic.full_name.clone(),
        });
    }
    if pictures.len() > 64 {
        d.push(p.at(
            "pictures",
            format!("{} pictures: at most 64 are supported", pictures.len()),
        ));
    }
    let mut bag = Vec::new();
    let mut reserve = Vec::new();
    for (i, g) in t.evidence.iter().enumerate() {
        let distinct: HashSet<_> = g.colours.iter().collect();
        if g.colours.is_empty() || g.colours.len() > 2 || distinct.len() != g.colours.len() {
            d.push(p.at(
                &format!("evidence[{i}].colours"),
                "expected one colour or two different colours (R1.5)",
            ));
            continue;
        }
        let tok = |in_bag| EvidenceToken {
            colours: Colours::of(&g.colours),
            momentum_symbol: g.momentum_symbol,
            in_bag,
        };
        bag.extend(std::iter::repeat_n(tok(true), g.in_bag as usize));
        reserve.extend(std::iter::repeat_n(tok(false), g.in_reserve as usize));
    }
    bag.extend(reserve);
    if bag.len() > MAX_EVIDENCE {
        d.push(p.at(
            "evidence",
            format!(
                "{} evidence tokens: at most {MAX_EVIDENCE} are supported",
                bag.len()
            ),
        ));
    }
    (pictures, bag)
}

/// The board against the pictures of `tokens` (`pictures`, checked from
/// it): a picture with no space is reported at its own name in
/// `tokens.ron`, where a rename is made.
fn check_board(
    p: &Parsed<BoardDef>,
    tokens: &Parsed<TokensDef>,
    pictures: &[Picture],
    d: &mut Diagnostics,
) -> Option<Board> {
    let b = &p.def;
    let before = d.len();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut spaces = Vec::new();
    let mut nixon = None;
    let mut informant_spaces: Vec<Option<SpaceId>> = vec![None; pictures.len()];
    if b.spaces.len() > MAX_ITEMS {
        d.push(p.at(
            "spaces",
            format!(
                "{} spaces: at most {MAX_ITEMS} are supported",
                b.spaces.len()
            ),
        ));
        return None;
    }
    for (i, s) in b.spaces.iter().enumerate() {
        if index.insert(&s.id, i).is_some() {
            d.push(p.at(
                &format!("spaces[{i}].id"),
                format!("duplicate space id `{}`", s.id),
            ));
        }
        let kind = match &s.kind {
            SpaceKindDef::Nixon => {
                if nixon.is_some() {
                    d.push(p.at(
                        &format!("spaces[{i}].kind"),
                        "a second Nixon space: expected exactly one centre",
                    ));
                }
                nixon = Some(SpaceId(i as u8));
                SpaceKind::Nixon
            }
            SpaceKindDef::Evidence(c) => SpaceKind::Evidence(*c),
            SpaceKindDef::Informant(name) => {
                match pictures
                    .iter()
                    .position(|pic| pic.name.eq_ignore_ascii_case(name))
                {
                    Some(pi) => {
                        if informant_spaces[pi].is_some() {
                            d.push(p.at(
                                &format!("spaces[{i}].kind"),
                                format!("a second space for informant `{name}`"),
                            ));
                        }
                        informant_spaces[pi] = Some(SpaceId(i as u8));
                        SpaceKind::Informant(PictureId(pi as u8))
                    }
                    None => {
                        d.push(p.at(
                            &format!("spaces[{i}].kind[0]"),
                            format!(
                                "no picture named `{name}` in {TOKENS_FILE}; expected one of: {}",
                                picture_names(pictures)
                            ),
                        ));
                        SpaceKind::Evidence(Colour::Blue)
                    }
                }
            }
        };
        spaces.push(BoardSpace {
            id: s.id.clone(),
            kind,
            at: s.at,
        });
    }
    if nixon.is_none() {
        d.push(p.at(
            "spaces",
            "no Nixon space: expected one space of kind `Nixon` (R1.6)",
        ));
    }
    for (pi, s) in informant_spaces.iter().enumerate() {
        // A picture whose name an earlier one has is reported as a
        // duplicate in its own file; its space is the earlier one's.
        let repeated = pictures[..pi]
            .iter()
            .any(|q| q.name.eq_ignore_ascii_case(&pictures[pi].name));
        if s.is_none() && !repeated {
            d.push(tokens.at(
                &format!("pictures[{pi}].name"),
                format!(
                    "no informant space on the board for picture `{0}` (R1.6): expected a space of kind `Informant(\"{0}\")` in {1}",
                    pictures[pi].name,
                    p.display
                ),
            ));
        }
    }
    let mut neighbours = vec![Vec::new(); spaces.len()];
    let mut seen = HashSet::new();
    for (i, (a, b2)) in b.threads.iter().enumerate() {
        let ia = index.get(a.as_str());
        let ib = index.get(b2.as_str());
        for (k, (name, found)) in [(a, ia), (b2, ib)].into_iter().enumerate() {
            if found.is_none() {
                // A misspelt id (`m01` for `m1`) is met with the nearest;
                // when two or three are as near (`m01`: `m1` and `m11`),
                // with each of them, for the designer to pick.
                let mut near: Vec<(usize, &str)> = (index.keys())
                    .map(|id| (crate::diag::edit_distance(name, id), *id))
                    .filter(|(dist, _)| *dist <= 1.max(name.len() / 4))
                    .collect();
                near.sort();
                let nearest: Vec<String> = near
                    .iter()
                    .take_while(|(dist, _)| *dist == near[0].0)
                    .map(|(_, id)| format!("`{id}`"))
                    .collect();
                let hint = match nearest.len() {
                    0 | 4.. => String::new(),
                    _ => format!(" (did you mean {}?)", nearest.join(" or ")),
                };
                d.push(p.at(
                    &format!("threads[{i}][{k}]"),
                    format!("no space with id `{name}`{hint}"),
                ));
            }
        }
        let (Some(&ia), Some(&ib)) = (ia, ib) else {
            continue;
        };
        if ia == ib {
            d.push(p.at(
                &format!("threads[{i}]"),
                format!("a thread from `{a}` to itself"),
            ));
            continue;
        }
        if !seen.insert((ia.min(ib), ia.max(ib))) {
            d.push(p.at(
                &format!("threads[{i}]"),
                format!("duplicate thread `{a}`–`{b2}`"),
            ));
            continue;
        }
        let informant = |x: usize| matches!(spaces[x].kind, SpaceKind::Informant(_));
        let centre = |x: usize| matches!(spaces[x].kind, SpaceKind::Nixon);
        if (informant(ia) && (informant(ib) || centre(ib))) || (informant(ib) && centre(ia)) {
            d.push(p.at(
                &format!("threads[{i}]"),
                format!(
                    "thread `{a}`–`{b2}`: an informant space may only be joined to evidence spaces"
                ),
            ));
            continue;
        }
        neighbours[ia].push(SpaceId(ib as u8));
        neighbours[ib].push(SpaceId(ia as u8));
    }
    // Every informant must reach Nixon through evidence spaces (R8.3).
    if let Some(n) = nixon {
        let mut reach = vec![false; spaces.len()];
        let mut queue = VecDeque::from([n.index()]);
        reach[n.index()] = true;
        while let Some(x) = queue.pop_front() {
            for y in &neighbours[x] {
                let y = y.index();
                if !reach[y] {
                    reach[y] = true;
                    if matches!(spaces[y].kind, SpaceKind::Evidence(_)) {
                        queue.push_back(y);
                    }
                }
            }
        }
        for (pi, s) in informant_spaces.iter().enumerate() {
            if let Some(s) = s {
                if !reach[s.index()] {
                    d.push(p.at(
                        &format!("spaces[{}]", s.index()),
                        format!(
                            "informant `{}` cannot reach Nixon through evidence spaces: add threads",
                            pictures[pi].name
                        ),
                    ));
                }
            }
        }
    }
    if d.len() > before {
        return None;
    }
    Some(Board::new(
        spaces,
        neighbours,
        nixon?,
        informant_spaces
            .into_iter()
            .map(|s| s.unwrap_or(SpaceId(0)))
            .collect(),
    ))
}

fn requirement(
    p: &Parsed<PlayerCardDef>,
    r: &RequirementDef,
    pictures: Option<&[Picture]>,
    path: &str,
    d: &mut Diagnostics,
) -> Option<Requirement> {
    match r {
        RequirementDef::PictureInSupply(name) => {
            // Pictures unknown (tokens.ron did not parse): not checked.
            let pictures = pictures?;
            match pictures
                .iter()
                .position(|pic| pic.name.eq_ignore_ascii_case(name))
            {
                Some(i) => Some(Requirement::PictureInSupply(PictureId(i as u8))),
                None => {
                    d.push(p.at(path, format!("no picture named `{name}` in {TOKENS_FILE}")));
                    None
                }
            }
        }
        RequirementDef::NotFirstTurnOfRound => Some(Requirement::NotFirstTurnOfRound),
        RequirementDef::All(list) => {
            let mut out = Vec::new();
            for (i, r) in list.iter().enumerate() {
                out.push(requirement(p, r, pictures, &format!("{path}[0][{i}]"), d)?);
            }
            Some(Requirement::All(out))
        }
    }
}

/// The longest name a card, a momentum card or a picture may have, in
/// characters: names are drawn on the screens (a board cell, a hand's
/// line) and quoted in messages. The longest shipped one has 39.
const MAX_NAME: usize = 80;

/// Refuses a name longer than [`MAX_NAME`], at `field` of `p`'s file.
fn check_name_length<T>(p: &Parsed<T>, field: &str, name: &str, d: &mut Diagnostics) {
    let n = name.chars().count();
    if n > MAX_NAME {
        d.push(p.at(
            field,
            format!(
                "the name is {n} characters long: expected at most {MAX_NAME} (names are drawn on the screens and quoted in messages)"
            ),
        ));
    }
}

fn check_card(
    p: &Parsed<PlayerCardDef>,
    pictures: Option<&[Picture]>,
    d: &mut Diagnostics,
) -> Option<Card> {
    let c = &p.def;
    let before = d.len();
    check_name_length(p, "name", &c.name, d);
    if c.id.trim().is_empty() || c.id.contains(char::is_whitespace) {
        d.push(p.at(
            "id",
            "expected a non-empty id without spaces, like `nixon.howard_hunt`",
        ));
    }
    if !(1..=9).contains(&c.value) {
        d.push(p.at(
            "value",
            format!("value is {}: expected 1 to 9 (R1.7 prints 1–4)", c.value),
        ));
    }
    let distinct: HashSet<_> = c.colours.iter().collect();
    if c.colours.is_empty() || distinct.len() != c.colours.len() {
        d.push(p.at(
            "colours",
            "expected one, two or three different colours (R1.7)",
        ));
    }
    match (c.side, c.card_type) {
        (Side::Editor, CardType::Conspirator) => {
            d.push(p.at("type", "conspirators are Nixon's only (R1.7)"))
        }
        (Side::Nixon, CardType::Journalist) => {
            d.push(p.at("type", "journalists are the Editor's only (R1.7)"))
        }
        _ => {}
    }
    let informant = match (&c.informant, pictures) {
        (None, _) | (_, None) => None,
        (Some(name), Some(pictures)) => match pictures
            .iter()
            .position(|pic| pic.name.eq_ignore_ascii_case(name))
        {
            Some(i) => Some(PictureId(i as u8)),
            None => {
                d.push(p.at(
                    "informant",
                    format!(
                        "no picture named `{name}` in {TOKENS_FILE}; expected one of: {}",
                        picture_names(pictures)
                    ),
                ));
                None
            }
        },
    };
    let req = c
        .requirement
        .as_ref()
        .and_then(|r| requirement(p, r, pictures, "requirement", d));
    let reaction = c.reaction.as_ref().map(|t| Trigger {
        part: t.part,
        types: TypeMask::of(&t.card_types),
        moves: t.moves.map(|m| match m {
            MovedDef::Initiative => Moved::Initiative,
            MovedDef::Momentum => Moved::Momentum,
            MovedDef::Evidence => Moved::Evidence,
        }),
    });
    if let Some(t) = &c.reaction {
        if t.part == Part::Action && t.moves.is_some() {
            d.push(p.at(
                "reaction.moves",
                "`moves` applies only to reactions to a value part",
            ));
        }
    }
    if !c.script.starts_with("scripts/")
        || !c.script.ends_with(".rhai")
        || crate::data::source::data_path_problem(&c.script).is_some()
    {
        d.push(p.at(
            "script",
            format!(
                "script path `{}`: expected `scripts/….rhai`, relative to the data root",
                c.script
            ),
        ));
    }
    if d.len() > before {
        return None;
    }
    Some(Card {
        id: c.id.clone(),
        number: c.number,
        name: c.name.clone(),
        side: c.side,
        card_type: c.card_type,
        value: c.value,
        colours: Colours::of(&c.colours),
        informant,
        steps: c.steps,
        requirement: req,
        reaction,
        action_text: c.action_text.clone(),
        quote: c.quote.clone(),
        script: c.script.clone(),
        action: Action::Static(Vec::new()),
        unit: 0,
        file: p.rel.clone(),
        placeholders: c.provenance.placeholders.clone(),
    })
}

/// The pictures' names for an "expected one of" list, each once.
fn picture_names(pictures: &[Picture]) -> String {
    let mut seen = HashSet::new();
    pictures
        .iter()
        .map(|p| p.name.as_str())
        .filter(|n| seen.insert(n.to_ascii_lowercase()))
        .collect::<Vec<_>>()
        .join(", ")
}
