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
use crate::script::RhaiHost;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

pub const GAME_FILE: &str = "cards/game.ron";
pub const TOKENS_FILE: &str = "cards/tokens.ron";
pub const BOARD_FILE: &str = "cards/board.ron";
pub const MOMENTUM_DIR: &str = "cards/momentum/";

/// Ids are bytes; this bounds every list the data may define.
const MAX_ITEMS: usize = 250;

pub fn validate(ds: &DataSet) -> Result<Rules, Diagnostics> {
    let mut d = Diagnostics::default();

    let game = keep(&mut d, parse_file::<GameDef>(ds, GAME_FILE));
    let tokens = keep(&mut d, parse_file::<TokensDef>(ds, TOKENS_FILE));
    let board = keep(&mut d, parse_file::<BoardDef>(ds, BOARD_FILE));

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
    let momentum: Vec<Parsed<MomentumCardDef>> = momentum_files
        .iter()
        .filter_map(|rel| keep(&mut d, parse_file(ds, rel)))
        .collect();
    let cards: Vec<Parsed<PlayerCardDef>> = card_files
        .iter()
        .filter_map(|rel| keep(&mut d, parse_file(ds, rel)))
        .collect();

    let (Some(game), Some(tokens), Some(board)) = (game, tokens, board) else {
        return Err(d.sorted());
    };

    let numbers = check_game(&game, &mut d);
    let (pictures, evidence) = check_tokens(&tokens, &mut d);
    let board_rt = check_board(&board, &pictures, &mut d);
    if let Some(n) = &numbers {
        if n.informants_to_connect as usize > pictures.len() {
            d.push(game.at(
                "informants_to_connect",
                format!(
                    "informants_to_connect is {} but there are only {} pictures in {TOKENS_FILE}",
                    n.informants_to_connect,
                    pictures.len()
                ),
            ));
        }
    }

    let picture_names: Vec<String> = pictures.iter().map(|p| p.name.clone()).collect();
    let mut host = RhaiHost::new(picture_names);
    let mut units: HashMap<String, Option<usize>> = HashMap::new();
    let mut compile = |host: &mut RhaiHost, d: &mut Diagnostics, rel: &str| -> Option<usize> {
        if let Some(u) = units.get(rel) {
            return *u;
        }
        // A missing file is reported where the card names it.
        if !ds.files.contains_key(rel) {
            units.insert(rel.to_string(), None);
            return None;
        }
        let u = match text_of(ds, rel) {
            Ok(text) => match host.compile(rel, &ds.display_path(rel), text) {
                Ok(u) => Some(u),
                Err(problems) => {
                    for p in problems {
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
        units.insert(rel.to_string(), u);
        u
    };

    // Player cards.
    let mut runtime_cards = Vec::new();
    let mut card_units = Vec::new();
    let mut seen_ids: HashMap<String, String> = HashMap::new();
    let mut seen_numbers: HashMap<u16, String> = HashMap::new();
    if cards.len() > MAX_ITEMS {
        d.push(Diagnostic::file(
            ds.display_path("cards"),
            format!(
                "{} player cards: at most {MAX_ITEMS} are supported",
                cards.len()
            ),
        ));
    }
    for p in &cards {
        let c = &p.def;
        if let Some(other) = seen_ids.insert(c.id.clone(), p.display.clone()) {
            d.push(p.at(
                "id",
                format!("duplicate card id `{}`: also used by {other}", c.id),
            ));
        }
        if let Some(other) = seen_numbers.insert(c.number, p.display.clone()) {
            d.push(p.at(
                "number",
                format!("duplicate card number {}: also used by {other}", c.number),
            ));
        }
        if let Some(rt) = check_card(p, &pictures, &mut d) {
            let unit = compile(&mut host, &mut d, &c.script);
            if unit.is_none() && !ds.files.contains_key(&c.script) {
                d.push(p.at(
                    "script",
                    format!("no script file `{}` in the data", c.script),
                ));
            }
            runtime_cards.push(rt);
            card_units.push((unit, p));
        }
    }
    for side in Side::BOTH {
        if !runtime_cards.iter().any(|c: &Card| c.side == side) {
            d.push(Diagnostic::file(
                ds.display_path("cards"),
                format!("no player cards for {side}: each side needs a deck"),
            ));
        }
    }

    // Momentum cards.
    let mut mcards: BySide<Option<MomentumCard>> = BySide::default();
    let mut space_units = Vec::new();
    for p in &momentum {
        let m = &p.def;
        if let Some(other) = seen_ids.insert(m.id.clone(), p.display.clone()) {
            d.push(p.at(
                "id",
                format!("duplicate card id `{}`: also used by {other}", m.id),
            ));
        }
        if let Some(other) = seen_numbers.insert(m.number, p.display.clone()) {
            d.push(p.at(
                "number",
                format!("duplicate card number {}: also used by {other}", m.number),
            ));
        }
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
                let unit = compile(&mut host, &mut d, script);
                if unit.is_none() && !ds.files.contains_key(script) {
                    d.push(p.at(
                        &format!("spaces[{i}].script"),
                        format!("no script file `{script}` in the data"),
                    ));
                }
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
        if mcards[side].is_none() {
            d.push(Diagnostic::file(
                ds.display_path(MOMENTUM_DIR.trim_end_matches('/')),
                format!(
                    "no momentum card for {side}: expected one RON file per side in {MOMENTUM_DIR}"
                ),
            ));
        }
    }
    if let (Some(n), Some(nixon)) = (&numbers, &mcards.nixon) {
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

    // Run each script once: a script that reads no game state yields its
    // program now, and the program is reused at every play.
    let probe = |host: &RhaiHost,
                 unit: usize,
                 ctx: &CardContext,
                 who: &str,
                 d: &mut Diagnostics| {
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
    };
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
    };
    let mut actions = Vec::new();
    for (i, (unit, p)) in card_units.iter().enumerate() {
        let action = unit.and_then(|u| {
            probe(
                &host,
                u,
                &partial.card_context(CardId(i as u8)),
                &format!("card `{}`", p.def.name),
                &mut d,
            )
        });
        actions.push(action);
    }
    let mut space_actions = Vec::new();
    let mut space_unit_ids = Vec::new();
    for (side, i, unit, p) in &space_units {
        space_unit_ids.push((*side, *i, *unit));
        let ctx: CardContext = partial.space_context_named(*side, *i, &p.def.id, &p.def.name);
        let action = unit.and_then(|u| {
            probe(
                &host,
                u,
                &ctx,
                &format!("{} space {}", p.def.name, i + 1),
                &mut d,
            )
        });
        space_actions.push((*side, *i, action));
    }

    if !d.is_empty() {
        return Err(d.sorted());
    }
    let (
        Some(numbers),
        Some(board_rt),
        BySide {
            editor: Some(mut editor_mc),
            nixon: Some(mut nixon_mc),
        },
    ) = (numbers, board_rt, mcards)
    else {
        return Err(d.sorted());
    };
    let mut cards_rt = partial.cards;
    for ((c, a), (unit, _)) in cards_rt.iter_mut().zip(actions).zip(&card_units) {
        if let Some(a) = a {
            c.action = a;
        }
        c.unit = unit.unwrap_or(0);
    }
    for (side, i, a) in space_actions {
        let mc = if side == Side::Editor {
            &mut editor_mc
        } else {
            &mut nixon_mc
        };
        mc.spaces[i].action = a;
    }
    for (side, i, unit) in space_unit_ids {
        let mc = if side == Side::Editor {
            &mut editor_mc
        } else {
            &mut nixon_mc
        };
        mc.spaces[i].unit = unit;
    }
    // Sort cards by side then number so CardIds are stable and readable.
    cards_rt.sort_by_key(|c| (c.side, c.number));
    // Card programs were probed with contexts in file order; they do not
    // embed card ids, so sorting afterwards is safe.
    Ok(Rules {
        name: game.def.name.clone(),
        numbers,
        settings: settings_of(&game.def.settings),
        cards: cards_rt,
        momentum_cards: BySide::new(editor_mc, nixon_mc),
        board: board_rt,
        evidence,
        pictures,
        scripts: std::sync::Arc::new(host),
        fingerprint: ds.fingerprint(),
    })
}

fn keep<T>(d: &mut Diagnostics, r: Result<T, Diagnostic>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            d.push(e);
            None
        }
    }
}

fn placeholder_numbers() -> Numbers {
    Numbers {
        hand_size_with_initiative: 0,
        hand_size_without_initiative: 0,
        evidence_per_round: 0,
        track_length: 1,
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
        10,
        "spaces on each side, R1.3",
    );
    ok &= range(p, d, "momentum_tokens", g.momentum_tokens, 1, 50, "R1.4");
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
    if g.momentum_on_track_at_start > g.momentum_tokens {
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
        if !names.insert(pic.name.to_ascii_lowercase()) {
            d.push(p.at(
                &format!("pictures[{i}].name"),
                format!("duplicate picture `{}`", pic.name),
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
    if bag.len() > MAX_ITEMS {
        d.push(p.at(
            "evidence",
            format!(
                "{} evidence tokens: at most {MAX_ITEMS} are supported",
                bag.len()
            ),
        ));
    }
    (pictures, bag)
}

fn check_board(p: &Parsed<BoardDef>, pictures: &[Picture], d: &mut Diagnostics) -> Option<Board> {
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
                                pictures.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
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
        if s.is_none() {
            d.push(p.at(
                "spaces",
                format!(
                    "no informant space for picture `{}` (R1.6)",
                    pictures[pi].name
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
                d.push(p.at(
                    &format!("threads[{i}][{k}]"),
                    format!("no space with id `{name}`"),
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
    pictures: &[Picture],
    path: &str,
    d: &mut Diagnostics,
) -> Option<Requirement> {
    match r {
        RequirementDef::PictureInSupply(name) => {
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

fn check_card(
    p: &Parsed<PlayerCardDef>,
    pictures: &[Picture],
    d: &mut Diagnostics,
) -> Option<Card> {
    let c = &p.def;
    let before = d.len();
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
    let informant = match &c.informant {
        None => None,
        Some(name) => match pictures
            .iter()
            .position(|pic| pic.name.eq_ignore_ascii_case(name))
        {
            Some(i) => Some(PictureId(i as u8)),
            None => {
                d.push(p.at(
                    "informant",
                    format!(
                        "no picture named `{name}` in {TOKENS_FILE}; expected one of: {}",
                        pictures.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
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
    if !c.script.starts_with("scripts/") || !c.script.ends_with(".rhai") {
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
