//! Scenario file → game state. Every inconsistency (a token or card in two
//! places, an unknown card, too many momentum tokens, a picture on the wrong
//! space…) is reported, all at once, with `path:line:col`.

use super::format::*;
use crate::data::srcmap::SourceMap;
use crate::diag::edit_distance;
use crate::diag::{Diagnostic, Diagnostics};
use crate::game::engine::notation::{parse_kind, parse_pos};
use crate::game::model::*;
use crate::game::program::{Forbid, TypeMask};
use crate::game::rules::Rules;
use crate::game::state::*;

/// Collects problems against positions in one scenario file.
pub struct Problems<'a> {
    pub display: &'a str,
    pub map: &'a SourceMap,
    pub diags: Diagnostics,
    /// For expectations inside `steps`: paths and messages written
    /// `expect.<field>` stand at `(path, name)` instead, e.g.
    /// `("steps[3][0]", "steps[3]")`.
    pub rename: Option<(String, String)>,
}

impl Problems<'_> {
    pub fn at(&mut self, path: &str, message: impl Into<String>) {
        let mut message = message.into();
        let mut path = path.to_string();
        if let Some((at, name)) = &self.rename {
            if let Some(rest) = path.strip_prefix("expect") {
                path = format!("{at}{rest}");
                message = message.replace("expect.", &format!("{name}."));
            }
        }
        let (line, col) = self.map.locate(&path);
        self.diags
            .push(Diagnostic::new(self.display, line, col, message));
    }
}

/// Finds a card by full id (`nixon.gambit`), short id (`gambit`) or name.
pub fn find_card(r: &Rules, name: &str) -> Result<CardId, String> {
    let n = name.trim().to_lowercase();
    let by = |f: &dyn Fn(&crate::game::rules::Card) -> bool| -> Vec<CardId> {
        r.cards
            .iter()
            .enumerate()
            .filter(|(_, c)| f(c))
            .map(|(i, _)| CardId(i as u8))
            .collect()
    };
    for found in [
        by(&|c| c.id.to_lowercase() == n),
        by(&|c| {
            c.id.split_once('.')
                .is_some_and(|(_, s)| s.to_lowercase() == n)
        }),
        by(&|c| c.name.to_lowercase() == n),
    ] {
        match found.len() {
            0 => continue,
            1 => return Ok(found[0]),
            _ => {
                return Err(format!(
                    "`{name}` names several cards: {}; use the full id",
                    found
                        .iter()
                        .map(|c| r.card(*c).id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }
        }
    }
    // Suggest the ids closest in spelling.
    let mut scored: Vec<(usize, &str)> = r
        .cards
        .iter()
        .map(|c| {
            let short = c.id.split_once('.').map(|(_, s)| s).unwrap_or(&c.id);
            let d = edit_distance(&n, &c.id.to_lowercase()).min(edit_distance(&n, short));
            let d = if c.id.contains(&n) && n.len() >= 4 {
                0
            } else {
                d
            };
            (d, c.id.as_str())
        })
        .filter(|(d, _)| *d <= (n.len() / 4).max(2))
        .collect();
    scored.sort();
    let close: Vec<&str> = scored.iter().take(3).map(|(_, id)| *id).collect();
    Err(if close.is_empty() {
        format!("no card `{name}`: expected a card id like `nixon.gambit` (see `watergate cards`)")
    } else {
        format!("no card `{name}`; did you mean {}?", close.join(" or "))
    })
}

/// Hands out evidence tokens by kind, each at most once.
struct TokenPool<'r> {
    r: &'r Rules,
    used: Vec<bool>,
}

impl TokenPool<'_> {
    fn take(&mut self, text: &str) -> Result<TokenId, String> {
        let Some((colours, symbol, id)) = parse_kind(text) else {
            return Err(format!(
                "`{text}` is not a token kind: expected colours like `blue`, `blue/yellow`, with `*` for the momentum symbol and optionally `#id`"
            ));
        };
        let fits = |t: &crate::game::rules::EvidenceToken| {
            t.colours == colours && t.momentum_symbol == symbol
        };
        if let Some(id) = id {
            let i = id as usize;
            return match self.r.evidence.get(i) {
                None => Err(format!(
                    "no evidence token #{id}: expected #0..#{}",
                    self.r.evidence.len().saturating_sub(1)
                )),
                Some(t) if !fits(t) => Err(format!(
                    "evidence token #{id} is `{}`, not `{}`",
                    crate::game::engine::notation::kind_name(t.colours, t.momentum_symbol),
                    text.split('#').next().unwrap_or(text).trim()
                )),
                Some(_) if self.used[i] => Err(format!("evidence token #{id} is listed twice")),
                Some(_) => {
                    self.used[i] = true;
                    Ok(TokenId(id))
                }
            };
        }
        // Prefer bag tokens, then the reserve.
        for in_bag in [true, false] {
            if let Some(i) = (0..self.r.evidence.len()).find(|i| {
                !self.used[*i] && self.r.evidence[*i].in_bag == in_bag && fits(&self.r.evidence[*i])
            }) {
                self.used[i] = true;
                return Ok(TokenId(i as u8));
            }
        }
        let total = self.r.evidence.iter().filter(|t| fits(t)).count();
        Err(format!(
            "no `{text}` token left: the data has {total} in all"
        ))
    }
}

fn track_pos(r: &Rules, s: &str) -> Result<i8, String> {
    let len = r.numbers.track_length;
    let m = len - 1;
    let expected = format!("expected `0`, `E1`..`E{m}` or `N1`..`N{m}`");
    match parse_pos(s) {
        Some(p) if p.abs() < len => Ok(p),
        Some(p) if p.abs() == len => Err(format!(
            "`{s}`: space {len} is where a token is gained at once (R5.8), so nothing stands there; {expected}"
        )),
        Some(_) => Err(format!("no track space `{s}`: the track has {len} spaces on each side; {expected}")),
        None => Err(format!("`{s}` is not a track space: {expected}")),
    }
}

/// A place in the file, for "also at …" messages: what it is and where.
fn place(pr: &Problems, path: &str) -> String {
    let (line, col) = pr.map.locate(path);
    let what = if let Some(rest) = path.strip_prefix("position.") {
        let mut parts = rest.split(['.', '[']);
        match (parts.next(), parts.next()) {
            (Some("hands"), Some("editor")) => "the Editor's hand".to_string(),
            (Some("hands"), Some("nixon")) => "Nixon's hand".to_string(),
            (Some("decks"), Some("editor")) => "the Editor's deck".to_string(),
            (Some("decks"), Some("nixon")) => "Nixon's deck".to_string(),
            (Some("discards"), Some("editor")) => "the Editor's discard pile".to_string(),
            (Some("discards"), Some("nixon")) => "Nixon's discard pile".to_string(),
            (Some("removed"), _) => "the removed cards".to_string(),
            (Some("track"), _) => "the research track".to_string(),
            (Some("board"), _) => "the evidence board".to_string(),
            (Some("stack"), _) => "the stack".to_string(),
            (Some("bag"), _) => "the bag".to_string(),
            _ => path.to_string(),
        }
    } else {
        path.to_string()
    };
    format!("{what} (line {line}, column {col})")
}

fn side_possessive(side: Side) -> &'static str {
    match side {
        Side::Editor => "the Editor's",
        Side::Nixon => "Nixon's",
    }
}

/// Builds the game state a position describes.
pub fn build_state(r: &Rules, p: &PositionDef, seed: u64, pr: &mut Problems) -> Option<State> {
    let before = pr.diags.len();
    let mut s = State::setup(r, seed);
    for side in Side::BOTH {
        s.hands[side.index()].clear();
        s.decks[side.index()].clear();
        s.discards[side.index()].clear();
    }
    s.bag.clear();
    if p.round == 0 {
        pr.at("position.round", "round 0: rounds are counted from 1");
    }
    s.round = p.round.max(1);
    for side in Side::BOTH {
        let n = *p.turns_played.get(side);
        if n > 40 {
            pr.at(
                &format!("position.turns_played.{}", side.key()),
                format!("{n} cards played this round: expected at most the cards of a deck"),
            );
        }
    }
    s.initiative = p.initiative;
    s.turn = p.turn.unwrap_or(p.initiative);
    s.turns_played = [p.turns_played.editor, p.turns_played.nixon];
    s.explicit_chance = p.explicit_chance;
    s.phase = match p.phase {
        PhaseDef::Initial => Phase::Initial,
        PhaseDef::Cards => Phase::Cards,
        PhaseDef::Evaluation => Phase::Evaluation,
    };
    if let Some(hex) = &p.rng {
        match u128::from_str_radix(hex.trim(), 16) {
            Ok(v) => s.rng = GameRng::new(v),
            Err(_) => pr.at(
                "position.rng",
                format!("`{hex}` is not hexadecimal: expected the generator state as `watergate` saved it"),
            ),
        }
    }

    // Tokens on the track, initiative and momentum.
    let len = r.numbers.track_length;
    s.initiative_token = match p.initiative_token.trim() {
        "gained" => None,
        other => match track_pos(r, other) {
            Ok(x) => Some(x),
            Err(e) => {
                pr.at("position.initiative_token", format!("{e}, or `gained`"));
                Some(0)
            }
        },
    };
    s.momentum_token = match p.momentum_token.trim() {
        "off" => None,
        other => match track_pos(r, other) {
            Ok(x) => Some(x),
            Err(e) => {
                pr.at("position.momentum_token", format!("{e}, or `off`"));
                Some(0)
            }
        },
    };
    s.momentum_cards = [p.momentum_cards.editor, p.momentum_cards.nixon];
    for side in Side::BOTH {
        let spaces = r.momentum_cards[side.index()].spaces.len();
        if s.momentum_cards[side.index()] as usize > spaces {
            pr.at(
                &format!("position.momentum_cards.{}", side.key()),
                format!(
                    "{} tokens on {} momentum card: it has only {spaces} spaces",
                    s.momentum_cards[side.index()],
                    side_possessive(side)
                ),
            );
        }
    }
    if s.momentum_cards[Side::Nixon.index()] >= r.numbers.momentum_to_win {
        pr.at(
            "position.momentum_cards.nixon",
            format!(
                "{} momentum tokens on Nixon's card: the game would be over (R8.1 wins at {})",
                s.momentum_cards[1], r.numbers.momentum_to_win
            ),
        );
    }
    s.momentum_removed = p.momentum_removed;
    let placed = s.momentum_token.is_some() as u32
        + s.momentum_cards.iter().map(|n| *n as u32).sum::<u32>()
        + p.momentum_removed as u32;
    let total = r.numbers.momentum_tokens as u32;
    let breakdown = format!(
        "{} on the track, {} on the momentum cards, {} removed",
        s.momentum_token.is_some() as u32,
        s.momentum_cards.iter().map(|n| *n as u32).sum::<u32>(),
        p.momentum_removed
    );
    match p.momentum_supply {
        Some(sup) if sup as u32 + placed != total => pr.at(
            "position.momentum_supply",
            format!(
                "{} momentum tokens in all ({sup} in the supply; {breakdown}): the game has {total}{}",
                sup as u32 + placed,
                if placed <= total {
                    format!("; expected momentum_supply: {}", total - placed)
                } else {
                    String::new()
                }
            ),
        ),
        Some(sup) => s.momentum_supply = sup,
        None if placed > total => pr.at(
            "position.momentum_cards",
            format!("{placed} momentum tokens placed ({breakdown}): the game has only {total}"),
        ),
        None => s.momentum_supply = (total - placed) as u8,
    }

    let mut pool = TokenPool {
        r,
        used: vec![false; r.evidence.len()],
    };
    for loc in s.evidence.iter_mut() {
        *loc = EvLoc::Reserve;
    }
    for (i, t) in p.track.iter().enumerate() {
        let at = format!("position.track[{i}]");
        let pos = match track_pos(r, &t.at) {
            Ok(x) => x,
            Err(e) => {
                pr.at(&format!("{at}.at"), e);
                continue;
            }
        };
        match pool.take(&t.token) {
            Ok(id) => {
                s.track.push(id);
                s.evidence[id.index()] = EvLoc::Track {
                    pos,
                    face_up: t.face_up,
                };
            }
            Err(e) => pr.at(&format!("{at}.token"), e),
        }
    }
    let mut occupied = vec![None::<usize>; r.board.spaces.len()];
    for (i, b) in p.board.iter().enumerate() {
        let at = format!("position.board[{i}]");
        let Some(space) = r.board.space_index(&b.space) else {
            pr.at(
                &format!("{at}.space"),
                format!(
                    "no board space `{}`: expected a space id of cards/board.ron ({}…)",
                    b.space,
                    // The board's own first evidence spaces, as examples.
                    r.board
                        .spaces
                        .iter()
                        .filter(|s| matches!(s.kind, crate::game::rules::SpaceKind::Evidence(_)))
                        .take(2)
                        .map(|s| s.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            continue;
        };
        let Some(slip) = r.board.slip(space) else {
            let ids: Vec<&str> = r
                .board
                .spaces
                .iter()
                .filter(|sp| matches!(sp.kind, crate::game::rules::SpaceKind::Evidence(_)))
                .map(|sp| sp.id.as_str())
                .collect();
            pr.at(
                &format!("{at}.space"),
                format!(
                    "`{}` is not an evidence space: expected one of {}",
                    b.space,
                    ids.join(", ")
                ),
            );
            continue;
        };
        if let Some(j) = occupied[space.index()] {
            let other = place(pr, &format!("position.board[{j}]"));
            pr.at(
                &format!("{at}.space"),
                format!("space `{}` already holds a token: {other}", b.space),
            );
            continue;
        }
        occupied[space.index()] = Some(i);
        match pool.take(&b.token) {
            Ok(id) => {
                if !r.token(id).colours.contains(slip) {
                    pr.at(
                        &format!("{at}.token"),
                        format!(
                            "a `{}` token cannot be pinned on the {slip} slip of `{}` (R7.6)",
                            b.token, b.space
                        ),
                    );
                }
                s.evidence[id.index()] = EvLoc::Board {
                    space,
                    face_up: b.face_up,
                };
            }
            Err(e) => pr.at(&format!("{at}.token"), e),
        }
    }
    for (i, pic) in p.pictures.iter().enumerate() {
        let at = format!("position.pictures[{i}]");
        let Some(pid) = r.picture_by_name(&pic.name) else {
            pr.at(
                &format!("{at}.name"),
                format!(
                    "no picture `{}`: expected one of {}",
                    pic.name,
                    r.pictures
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            continue;
        };
        if s.pictures[pid.index()] != PicLoc::Supply {
            pr.at(
                &format!("{at}.name"),
                format!("picture `{}` is listed twice", pic.name),
            );
        }
        if let Some(space) = &pic.space {
            let own = &r.board.spaces[r.board.informant_spaces[pid.index()].index()].id;
            if space != own {
                pr.at(
                    &format!("{at}.space"),
                    format!(
                        "{}'s picture belongs on `{own}`, not `{space}` (R5.13)",
                        pic.name
                    ),
                );
            }
        }
        s.pictures[pid.index()] = PicLoc::Pinned {
            face_up: pic.face_up,
        };
    }

    // Cards.
    let mut placed_at: Vec<Option<String>> = vec![None; r.cards.len()];
    let mut take_card =
        |pr: &mut Problems, name: &str, path: &str, owner: Option<Side>| -> Option<CardId> {
            match find_card(r, name) {
                Err(e) => {
                    pr.at(path, e);
                    None
                }
                Ok(c) => {
                    if let Some(prev) = &placed_at[c.index()] {
                        let other = place(pr, prev);
                        pr.at(
                            path,
                            format!("card `{}` is in two places: also in {other}", r.card(c).id),
                        );
                        return None;
                    }
                    if let Some(side) = owner {
                        if r.card(c).side != side {
                            let here = place(pr, path);
                            let here = here.split(" (").next().unwrap_or("");
                            pr.at(
                                path,
                                format!(
                                    "`{}` is {} card: it cannot be in {here}",
                                    r.card(c).id,
                                    side_possessive(r.card(c).side),
                                ),
                            );
                            return None;
                        }
                    }
                    placed_at[c.index()] = Some(path.to_string());
                    Some(c)
                }
            }
        };
    for side in Side::BOTH {
        let i = side.index();
        let key = side.key();
        for (k, name) in p.hands.get(side).iter().enumerate() {
            if let Some(c) = take_card(pr, name, &format!("position.hands.{key}[{k}]"), Some(side))
            {
                s.hands[i].push(c);
            }
        }
        let mut deck = Vec::new();
        for (k, name) in p.decks.get(side).iter().enumerate() {
            if let Some(c) = take_card(pr, name, &format!("position.decks.{key}[{k}]"), Some(side))
            {
                deck.push(c);
            }
        }
        for (k, name) in p.discards.get(side).iter().enumerate() {
            if let Some(c) = take_card(
                pr,
                name,
                &format!("position.discards.{key}[{k}]"),
                Some(side),
            ) {
                s.discards[i].push(c);
            }
        }
        // Decks are listed top first; the state draws from the end.
        deck.reverse();
        s.decks[i] = deck.into_iter().collect();
    }
    for (k, name) in p.removed.iter().enumerate() {
        if let Some(c) = take_card(pr, name, &format!("position.removed[{k}]"), None) {
            s.removed.push(c);
        }
    }

    // The stack.
    let mut stack = Vec::new();
    for (k, f) in p.stack.iter().enumerate() {
        let at = format!("position.stack[{k}]");
        let frame = match f {
            FrameDef::Setup {
                dealt,
                evidence_left,
            } => Some(Frame::Setup {
                dealt: *dealt,
                evidence_left: *evidence_left,
            }),
            FrameDef::Evaluation { step } => match EvalStep::from_number(*step) {
                Some(step) => Some(Frame::Evaluation { step }),
                None => {
                    pr.at(
                        &format!("{at}.step"),
                        format!("evaluation step {step}: expected 1 to 7 (R7.1–R7.5, then done)"),
                    );
                    None
                }
            },
            FrameDef::Pin { token, pinner } => match pool.take(token) {
                Ok(t) => {
                    s.evidence[t.index()] = EvLoc::Held;
                    Some(Frame::Pin {
                        token: t,
                        pinner: *pinner,
                    })
                }
                Err(e) => {
                    pr.at(&format!("{at}.token"), e);
                    None
                }
            },
            FrameDef::Play {
                card,
                player,
                part,
                stage,
                target,
                cancelled,
                reacting_to,
                dest,
            } => {
                let c = take_card(pr, card, &format!("{at}.card"), Some(*player));
                let stage = match stage {
                    StageDef::ChoosePart => Some(PlayStage::ChoosePart),
                    StageDef::ChooseTarget => Some(PlayStage::ChooseTarget),
                    StageDef::Window => Some(PlayStage::Window),
                    StageDef::Resolve => Some(PlayStage::Resolve),
                    StageDef::Running => Some(PlayStage::Running),
                    StageDef::Reveal(c) | StageDef::Locked(c) => match Colour::parse(c) {
                        Some(col) if matches!(stage, StageDef::Reveal(_)) => {
                            Some(PlayStage::Reveal(col))
                        }
                        Some(col) => Some(PlayStage::Locked(col)),
                        None => {
                            pr.at(&format!("{at}.stage"), format!("`{c}` is not a colour"));
                            None
                        }
                    },
                };
                let target = match target.as_deref() {
                    None => None,
                    Some(t) => match token_ref(r, &s, t) {
                        Ok(m) => Some(m),
                        Err(e) => {
                            pr.at(&format!("{at}.target"), e);
                            None
                        }
                    },
                };
                match (c, stage) {
                    (Some(card), Some(stage)) => Some(Frame::Play(PlayFrame {
                        card,
                        player: *player,
                        part: *part,
                        stage,
                        target,
                        cancelled: *cancelled,
                        reacting_to: *reacting_to,
                        dest: *dest,
                    })),
                    _ => None,
                }
            }
            FrameDef::Run {
                program,
                pc,
                actor,
                card,
                play,
                done,
                picked,
                chosen,
            } => {
                let prog = match program {
                    ProgramDef::Card(name) => match find_card(r, name) {
                        Ok(c) => Some(ProgRef::Card(c)),
                        Err(e) => {
                            pr.at(&format!("{at}.program"), e);
                            None
                        }
                    },
                    ProgramDef::Space(side, i) => {
                        if (*i as usize) < r.momentum_cards[side.index()].spaces.len() {
                            Some(ProgRef::Space(*side, *i))
                        } else {
                            pr.at(
                                &format!("{at}.program"),
                                format!("{side}'s momentum card has no space {i}"),
                            );
                            None
                        }
                    }
                    ProgramDef::Program(p) => {
                        Some(ProgRef::Dynamic(std::sync::Arc::new(p.clone())))
                    }
                };
                let lookup =
                    |pr: &mut Problems, name: &Option<String>, field: &str| -> Option<CardId> {
                        let n = name.as_ref()?;
                        match find_card(r, n) {
                            Ok(c) => Some(c),
                            Err(e) => {
                                pr.at(&format!("{at}.{field}"), e);
                                None
                            }
                        }
                    };
                let this = lookup(pr, card, "card");
                let chosen_card = lookup(pr, chosen, "chosen");
                let mut picked_ids = smallvec::SmallVec::new();
                for (j, t) in picked.iter().enumerate() {
                    match token_ref(r, &s, t) {
                        Ok(Moving::Evidence(id)) => picked_ids.push(id),
                        Ok(_) => {}
                        Err(e) => pr.at(&format!("{at}.picked[{j}]"), e),
                    }
                }
                prog.map(|prog| {
                    Frame::Run(RunFrame {
                        prog,
                        pc: *pc,
                        actor: *actor,
                        card: this,
                        play: *play,
                        done: *done,
                        picked: picked_ids,
                        chosen: chosen_card,
                    })
                })
            }
        };
        if let Some(f) = frame {
            stack.push(f);
        }
    }
    if p.phase == PhaseDef::Evaluation && stack.is_empty() {
        stack.push(Frame::Evaluation {
            step: EvalStep::FIRST,
        });
    }
    s.stack = stack.into_iter().collect();

    // The bag, and what is left.
    match &p.bag {
        Some(list) => {
            for (k, t) in list.iter().enumerate() {
                match pool.take(t) {
                    Ok(id) => {
                        s.bag.push(id);
                        s.evidence[id.index()] = EvLoc::Bag;
                    }
                    Err(e) => pr.at(&format!("position.bag[{k}]"), e),
                }
            }
            // Listed top first; the state draws from the end.
            s.bag.reverse();
        }
        None => {
            let mut rest: Vec<TokenId> = (0..r.evidence.len())
                .filter(|i| !pool.used[*i] && r.evidence[*i].in_bag)
                .map(|i| TokenId(i as u8))
                .collect();
            s.shuffle(&mut rest);
            for t in &rest {
                s.evidence[t.index()] = EvLoc::Bag;
            }
            s.bag = rest.into_iter().collect();
        }
    }
    for side in Side::BOTH {
        let mut rest: Vec<CardId> = r
            .cards_of(side)
            .filter(|c| placed_at[c.index()].is_none())
            .collect();
        s.shuffle(&mut rest);
        match p.unlisted_cards {
            UnlistedDef::Deck => {
                // Below the listed cards: the state draws from the end.
                let listed: Vec<CardId> = s.decks[side.index()].to_vec();
                s.decks[side.index()] = rest.into_iter().chain(listed).collect();
            }
            UnlistedDef::Discard => s.discards[side.index()].extend(rest),
            UnlistedDef::Removed => s.removed.extend(rest),
        }
    }
    for (k, f) in p.forbidden.iter().enumerate() {
        let mut types = Vec::new();
        for (j, t) in f.types.iter().enumerate() {
            match CardType::parse(t) {
                Some(ty) => types.push(ty),
                None => pr.at(
                    &format!("position.forbidden[{k}].types[{j}]"),
                    format!("`{t}` is not a card type: expected event, conspirator or journalist"),
                ),
            }
        }
        s.forbidden.push(Forbid {
            side: f.side,
            part: f.part,
            types: TypeMask::of(&types),
        });
    }
    let _ = len;
    if pr.diags.len() > before {
        return None;
    }
    if let Err(e) = crate::game::invariants::conservation(r, &s) {
        pr.at("position", format!("inconsistent position: {e}"));
        return None;
    }
    Some(s)
}

/// `initiative`, `momentum`, a track slot `ev2`, or one token `blue#3`.
fn token_ref(r: &Rules, s: &State, t: &str) -> Result<Moving, String> {
    match t.trim() {
        "initiative" => Ok(Moving::Initiative),
        "momentum" => Ok(Moving::Momentum),
        other if other.contains('#') => match parse_kind(other) {
            Some((colours, symbol, Some(id)))
                if r.evidence
                    .get(id as usize)
                    .is_some_and(|k| k.colours == colours && k.momentum_symbol == symbol) =>
            {
                Ok(Moving::Evidence(TokenId(id)))
            }
            _ => Err(format!(
                "`{other}` is not an evidence token of the data (kind#id)"
            )),
        },
        other => {
            let slot = other
                .strip_prefix("ev")
                .and_then(|n| n.parse::<u8>().ok())
                .ok_or_else(|| {
                    format!(
                        "`{other}`: expected `initiative`, `momentum` or a track slot like `ev0`"
                    )
                })?;
            s.track_token(slot)
                .map(Moving::Evidence)
                .ok_or_else(|| format!("no evidence token in track slot {slot}"))
        }
    }
}

/// A new game from a seed, or the position a scenario describes.
pub fn initial_state(r: &Rules, def: &ScenarioDef, pr: &mut Problems) -> Option<State> {
    match &def.position {
        None => Some(State::new(r, def.seed)),
        Some(p) => {
            let mut s = build_state(r, p, def.seed, pr)?;
            if let Err(e) = s.settle(r) {
                pr.at("position", format!("the position cannot be played on: {e}"));
                return None;
            }
            Some(s)
        }
    }
}

/// The generator's state as hex, for saving (PCG-64 MCG keeps one u128,
/// which it exposes only through serde).
pub fn rng_hex(rng: &GameRng) -> String {
    let text = ron::to_string(rng).unwrap_or_default();
    let digits: String = text.chars().filter(|c| c.is_ascii_digit()).collect();
    format!("{:x}", digits.parse::<u128>().unwrap_or(0))
}
