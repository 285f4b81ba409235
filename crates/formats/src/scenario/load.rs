//! A scenario's position → a [`Setup`] → the game state. The translation
//! reports every problem of the text (an unknown card, a token or card
//! listed twice, too many momentum tokens, a picture on the wrong space…),
//! all at once, with `path:line:col`; the rules core then checks the whole
//! position (`State::from_setup`).

use super::format::*;
use crate::data::srcmap::SourceMap;
use crate::diag::edit_distance;
use crate::diag::{Diagnostic, Diagnostics};
use crate::game::engine::notation::{parse_kind, parse_pos};
use crate::game::model::*;
use crate::game::program::{Forbid, TypeMask};
use crate::game::rules::Rules;
use crate::game::setup::{BoardToken, Setup, TrackToken};
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
        Some(_) => Err(format!(
            "no track space `{s}`: the track has {len} spaces on each side, and a token stands on the first {m} ({len} is where a token is gained at once, R5.8); {expected}"
        )),
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

/// Builds the game state a position describes: the text becomes a
/// [`Setup`] part by part (each part reporting its problems at their place
/// in the file), and the rules core checks the whole and makes the game.
pub fn build_state(r: &Rules, p: &PositionDef, seed: u64, pr: &mut Problems) -> Option<State> {
    let before = pr.diags.len();
    // What the position leaves unordered is shuffled by the generator as
    // the new game of this seed leaves it (R2's own shuffles done), so a
    // scenario's seed keeps meaning the same game.
    let rng = State::setup(r, seed).rng().clone();
    let mut b = Build {
        r,
        pr,
        s: Setup::empty(r, rng),
        pool: TokenPool {
            r,
            used: vec![false; r.evidence.len()],
        },
        cards: CardPlaces {
            placed_at: vec![None; r.cards.len()],
        },
    };
    b.counters(p);
    b.momentum(p);
    b.track(p);
    b.board(p);
    b.pictures(p);
    b.card_piles(p);
    b.stack(p);
    b.bag(p);
    b.unlisted_cards(p);
    b.forbidden(p);
    let Build { s, pr, .. } = b;
    if pr.diags.len() > before {
        return None;
    }
    match State::from_setup(r, s) {
        Ok(state) => {
            already_connected(r, &state, pr);
            (pr.diags.len() == before).then_some(state)
        }
        Err(problems) => {
            for e in problems {
                pr.at("position", format!("inconsistent position: {}", e.message));
            }
            None
        }
    }
}

/// The Editor's analogue of Nixon's full momentum card (`Build::momentum`):
/// a position whose face-up evidence already connects enough face-up
/// informants to Nixon is a game the Editor has won (R8.3), and the game
/// stops the moment a win holds (R8.4). Counted by the engine's own walk.
fn already_connected(r: &Rules, state: &State, pr: &mut Problems) {
    let needed = r.numbers.informants_to_connect as usize;
    if crate::game::engine::connected_informants(r, state) < needed {
        return;
    }
    let names: Vec<&str> = crate::game::engine::connected_informant_pictures(r, state)
        .into_iter()
        .map(|p| r.pictures[p.index()].name.as_str())
        .collect();
    pr.at(
        "position",
        format!(
            "{} connected to Nixon through face-up evidence ({}): the game would be over (R8.3: the Editor wins at {needed})",
            crate::game::wording::count(names.len(), "informant"),
            and_list(&names),
        ),
    );
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Where each player card has been listed so far, by its path in the file.
struct CardPlaces {
    placed_at: Vec<Option<String>>,
}

impl CardPlaces {
    /// The card `name` at `path`, unless it is unknown, already listed, or
    /// `owner`'s pile would hold the other side's card.
    fn take(
        &mut self,
        r: &Rules,
        pr: &mut Problems,
        name: &str,
        path: &str,
        owner: Option<Side>,
    ) -> Option<CardId> {
        let c = match find_card(r, name) {
            Err(e) => {
                pr.at(path, e);
                return None;
            }
            Ok(c) => c,
        };
        if let Some(prev) = &self.placed_at[c.index()] {
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
        self.placed_at[c.index()] = Some(path.to_string());
        Some(c)
    }

    fn unlisted(&self, c: CardId) -> bool {
        self.placed_at[c.index()].is_none()
    }
}

/// A position being translated: the setup so far, the tokens and cards
/// already placed, and the problems found.
struct Build<'a, 'p> {
    r: &'a Rules,
    pr: &'a mut Problems<'p>,
    s: Setup,
    pool: TokenPool<'a>,
    cards: CardPlaces,
}

impl Build<'_, '_> {
    /// Round, phase, initiative, turn, cards played, the generator.
    fn counters(&mut self, p: &PositionDef) {
        let (r, s, pr) = (self.r, &mut self.s, &mut *self.pr);
        if p.round == 0 {
            pr.at("position.round", "round 0: rounds are counted from 1");
        }
        s.round = p.round.max(1);
        // A side plays only from its hand (a turn or a reaction), and cards
        // come into a hand only in the initial phase (R4.1): at most the
        // larger hand a round deals.
        let most = r
            .numbers
            .hand_size_with_initiative
            .max(r.numbers.hand_size_without_initiative);
        for side in Side::BOTH {
            let n = *p.turns_played.get(side);
            if n > most {
                pr.at(
                    &format!("position.turns_played.{}", side.key()),
                    format!(
                        "{n} cards played this round: a side plays only from its hand, dealt at most {most} cards a round (R4.1)"
                    ),
                );
            }
        }
        s.initiative = p.initiative;
        s.turn = p.turn.unwrap_or(p.initiative);
        s.turns_played = p.turns_played;
        s.explicit_chance = p.explicit_chance || p.explicit_deals;
        s.explicit_deals = p.explicit_deals;
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
    }

    /// The initiative and momentum tokens, the momentum cards, the supply.
    fn momentum(&mut self, p: &PositionDef) {
        let (r, s, pr) = (self.r, &mut self.s, &mut *self.pr);
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
        s.momentum_cards = p.momentum_cards;
        for side in Side::BOTH {
            let spaces = r.momentum_cards[side].spaces.len();
            if s.momentum_cards[side] as usize > spaces {
                pr.at(
                    &format!("position.momentum_cards.{}", side.key()),
                    format!(
                        "{} tokens on {} momentum card: it has only {spaces} spaces",
                        s.momentum_cards[side],
                        side_possessive(side)
                    ),
                );
            }
        }
        if s.momentum_cards[Side::Nixon] >= r.numbers.momentum_to_win {
            pr.at(
                "position.momentum_cards.nixon",
                format!(
                    "{} momentum tokens on Nixon's card: the game would be over (R8.1 wins at {})",
                    s.momentum_cards[Side::Nixon],
                    r.numbers.momentum_to_win
                ),
            );
        }
        s.momentum_removed = p.momentum_removed;
        let on_cards = s.momentum_cards.iter().map(|n| *n as u32).sum::<u32>();
        let placed = s.momentum_token.is_some() as u32 + on_cards + p.momentum_removed as u32;
        let total = r.numbers.momentum_tokens as u32;
        let breakdown = format!(
            "{} on the track, {on_cards} on the momentum cards, {} removed",
            s.momentum_token.is_some() as u32,
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
    }

    /// The evidence on the research track, in slot order.
    fn track(&mut self, p: &PositionDef) {
        for (i, t) in p.track.iter().enumerate() {
            let at = format!("position.track[{i}]");
            // Both the place and the token are checked, so that an entry
            // wrong in both says both at once.
            let pos = track_pos(self.r, &t.at);
            let token = self.pool.take(&t.token);
            let (pos, token) = match (pos, token) {
                (Ok(pos), Ok(token)) => (pos, token),
                (pos, token) => {
                    if let Err(e) = token {
                        self.pr.at(&format!("{at}.token"), e);
                    }
                    if let Err(e) = pos {
                        self.pr.at(&format!("{at}.at"), e);
                    }
                    continue;
                }
            };
            // R5.6: what a vain ask told is true of the token, and only a
            // face-down token needs telling.
            let mut ruled_out = Colours::NONE;
            for (k, name) in t.ruled_out.iter().enumerate() {
                let here = format!("{at}.ruled_out[{k}]");
                match Colour::parse(name) {
                    None => self.pr.at(
                        &here,
                        format!("`{name}` is not a colour: blue, yellow or green"),
                    ),
                    Some(_) if t.face_up => self.pr.at(
                        &here,
                        "a face-up token shows its colours: nothing is ruled out (R5.6)",
                    ),
                    Some(c) if self.r.token(token).colours.contains(c) => self.pr.at(
                        &here,
                        format!(
                            "the token is {}: it cannot be known to lack {name} (R5.6)",
                            t.token
                        ),
                    ),
                    Some(c) => ruled_out.0 |= c.bit(),
                }
            }
            self.s.track.push(TrackToken {
                token,
                pos,
                face_up: t.face_up,
                ruled_out,
            });
        }
    }

    /// The evidence pinned on the board: a known evidence space each, one
    /// token a space, on a slip of its colour (R7.6).
    fn board(&mut self, p: &PositionDef) {
        let (r, pr) = (self.r, &mut *self.pr);
        let evidence_spaces = || {
            r.board
                .spaces
                .iter()
                .filter(|sp| matches!(sp.kind, crate::game::rules::SpaceKind::Evidence(_)))
                .map(|sp| sp.id.as_str())
        };
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
                        evidence_spaces().take(2).collect::<Vec<_>>().join(", ")
                    ),
                );
                continue;
            };
            let Some(slip) = r.board.slip(space) else {
                pr.at(
                    &format!("{at}.space"),
                    format!(
                        "`{}` is not an evidence space: expected one of {}",
                        b.space,
                        evidence_spaces().collect::<Vec<_>>().join(", ")
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
            match self.pool.take(&b.token) {
                Ok(token) => {
                    if !r.token(token).colours.contains(slip) {
                        pr.at(
                            &format!("{at}.token"),
                            format!(
                                "a `{}` token cannot be pinned on the {slip} slip of `{}` (R7.6)",
                                b.token, b.space
                            ),
                        );
                    }
                    self.s.board.push(BoardToken {
                        space,
                        token,
                        face_up: b.face_up,
                    });
                }
                Err(e) => pr.at(&format!("{at}.token"), e),
            }
        }
    }

    /// Pinned pictures, each on its own informant space (R5.13).
    fn pictures(&mut self, p: &PositionDef) {
        let (r, s, pr) = (self.r, &mut self.s, &mut *self.pr);
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
    }

    /// Hands, decks (listed top first), discard piles, removed cards.
    fn card_piles(&mut self, p: &PositionDef) {
        let (r, s, pr, cards) = (self.r, &mut self.s, &mut *self.pr, &mut self.cards);
        for side in Side::BOTH {
            let key = side.key();
            for (name, listed, pile) in [
                ("hands", p.hands.get(side), &mut s.hands[side]),
                ("decks", p.decks.get(side), &mut s.decks[side]),
                ("discards", p.discards.get(side), &mut s.discards[side]),
            ] {
                for (k, card) in listed.iter().enumerate() {
                    let path = format!("position.{name}.{key}[{k}]");
                    pile.extend(cards.take(r, pr, card, &path, Some(side)));
                }
            }
            // Decks are listed top first; the game draws from the end.
            s.decks[side].reverse();
        }
        for (k, name) in p.removed.iter().enumerate() {
            let path = format!("position.removed[{k}]");
            s.removed.extend(cards.take(r, pr, name, &path, None));
        }
    }

    /// The engine's work in progress, outermost first; a position in the
    /// evaluation phase without one starts the phase (R7.1).
    fn stack(&mut self, p: &PositionDef) {
        for (k, f) in p.stack.iter().enumerate() {
            let at = format!("position.stack[{k}]");
            if let Some(frame) = self.frame(f, &at) {
                self.s.stack.push(frame);
            }
        }
        if p.phase == PhaseDef::Evaluation && self.s.stack.is_empty() {
            self.s.stack.push(Frame::Evaluation {
                step: EvalStep::FIRST,
            });
        }
    }

    /// One frame of the stack, at `at` in the file.
    fn frame(&mut self, f: &FrameDef, at: &str) -> Option<Frame> {
        match f {
            FrameDef::Setup {
                dealt,
                cards_dealt,
                evidence_left,
            } => Some(Frame::Setup {
                dealt: *dealt,
                cards_dealt: *cards_dealt,
                evidence_left: *evidence_left,
            }),
            FrameDef::Evaluation { step } => match EvalStep::from_number(*step) {
                Some(step) => Some(Frame::Evaluation { step }),
                None => {
                    self.pr.at(
                        &format!("{at}.step"),
                        format!("evaluation step {step}: expected 1 to 7 (R7.1–R7.5, then done)"),
                    );
                    None
                }
            },
            FrameDef::Pin { token, pinner } => match self.pool.take(token) {
                Ok(token) => Some(Frame::Pin {
                    token,
                    pinner: *pinner,
                }),
                Err(e) => {
                    self.pr.at(&format!("{at}.token"), e);
                    None
                }
            },
            FrameDef::Play { .. } => self.play_frame(f, at),
            FrameDef::Run { .. } => self.run_frame(f, at),
        }
    }

    /// A card being played.
    fn play_frame(&mut self, f: &FrameDef, at: &str) -> Option<Frame> {
        let r = self.r;
        let FrameDef::Play {
            card,
            player,
            part,
            stage,
            target,
            cancelled,
            reacting_to,
            dest,
        } = f
        else {
            return None;
        };
        let c = self
            .cards
            .take(r, self.pr, card, &format!("{at}.card"), Some(*player));
        let stage = match stage {
            StageDef::ChoosePart => Some(PlayStage::ChoosePart),
            StageDef::ChooseTarget => Some(PlayStage::ChooseTarget),
            StageDef::Window => Some(PlayStage::Window),
            StageDef::Resolve => Some(PlayStage::Resolve),
            StageDef::Running => Some(PlayStage::Running),
            StageDef::Reveal(c) | StageDef::Locked(c) => match Colour::parse(c) {
                Some(col) if matches!(stage, StageDef::Reveal(_)) => Some(PlayStage::Reveal(col)),
                Some(col) => Some(PlayStage::Locked(col)),
                None => {
                    self.pr
                        .at(&format!("{at}.stage"), format!("`{c}` is not a colour"));
                    None
                }
            },
        };
        let target = match target.as_deref() {
            None => None,
            Some(t) => match token_ref(r, &self.s, t) {
                Ok(m) => Some(m),
                Err(e) => {
                    self.pr.at(&format!("{at}.target"), e);
                    None
                }
            },
        };
        Some(Frame::Play(PlayFrame {
            card: c?,
            player: *player,
            part: *part,
            stage: stage?,
            target,
            cancelled: *cancelled,
            reacting_to: *reacting_to,
            dest: *dest,
        }))
    }

    /// A card program being carried out.
    fn run_frame(&mut self, f: &FrameDef, at: &str) -> Option<Frame> {
        let r = self.r;
        let FrameDef::Run {
            program,
            pc,
            actor,
            card,
            play,
            done,
            picked,
            chosen,
        } = f
        else {
            return None;
        };
        let pr = &mut *self.pr;
        let prog = match program {
            ProgramDef::Card(name) => match find_card(r, name) {
                Ok(c) => Some(ProgRef::Card(c)),
                Err(e) => {
                    pr.at(&format!("{at}.program"), e);
                    None
                }
            },
            ProgramDef::Space(side, i) => {
                if (*i as usize) < r.momentum_cards[*side].spaces.len() {
                    Some(ProgRef::Space(*side, *i))
                } else {
                    pr.at(
                        &format!("{at}.program"),
                        format!("{side}'s momentum card has no space {i}"),
                    );
                    None
                }
            }
            ProgramDef::Program(p) => Some(ProgRef::Dynamic(std::sync::Arc::new(p.clone()))),
        };
        let mut lookup = |name: &Option<String>, field: &str| -> Option<CardId> {
            match find_card(r, name.as_ref()?) {
                Ok(c) => Some(c),
                Err(e) => {
                    pr.at(&format!("{at}.{field}"), e);
                    None
                }
            }
        };
        let this = lookup(card, "card");
        let chosen = lookup(chosen, "chosen");
        let mut picked_ids = crate::game::inline_list::InlineList::new();
        for (j, t) in picked.iter().enumerate() {
            match token_ref(r, &self.s, t) {
                Ok(Moving::Evidence(id)) => picked_ids.push(id),
                Ok(_) => {}
                Err(e) => pr.at(&format!("{at}.picked[{j}]"), e),
            }
        }
        let mut frame = RunFrame::new(prog?, *actor, this, *play);
        frame.pc = *pc;
        frame.done = *done;
        frame.picked = picked_ids;
        frame.chosen = chosen;
        Some(Frame::Run(frame))
    }

    /// The bag, listed top first; without a list, every bag token not
    /// placed elsewhere, shuffled.
    fn bag(&mut self, p: &PositionDef) {
        let r = self.r;
        match &p.bag {
            Some(list) => {
                for (k, t) in list.iter().enumerate() {
                    match self.pool.take(t) {
                        Ok(id) => self.s.bag.push(id),
                        Err(e) => self.pr.at(&format!("position.bag[{k}]"), e),
                    }
                }
                // Listed top first; the game draws from the end.
                self.s.bag.reverse();
            }
            None => {
                let mut rest: Vec<TokenId> = (0..r.evidence.len())
                    .filter(|i| !self.pool.used[*i] && r.evidence[*i].in_bag)
                    .map(|i| TokenId(i as u8))
                    .collect();
                self.s.shuffle(&mut rest);
                self.s.bag = rest;
            }
        }
    }

    /// The cards the position does not list, shuffled, where it says.
    fn unlisted_cards(&mut self, p: &PositionDef) {
        let s = &mut self.s;
        for side in Side::BOTH {
            let mut rest: Vec<CardId> = self
                .r
                .cards_of(side)
                .filter(|c| self.cards.unlisted(*c))
                .collect();
            s.shuffle(&mut rest);
            match p.unlisted_cards {
                UnlistedDef::Deck => {
                    // Below the listed cards: the game draws from the end.
                    let listed = std::mem::take(&mut s.decks[side]);
                    s.decks[side] = rest.into_iter().chain(listed).collect();
                }
                UnlistedDef::Discard => s.discards[side].extend(rest),
                UnlistedDef::Removed => s.removed.extend(rest),
            }
        }
    }

    /// Restrictions in force this round.
    fn forbidden(&mut self, p: &PositionDef) {
        for (k, f) in p.forbidden.iter().enumerate() {
            let mut types = Vec::new();
            for (j, t) in f.types.iter().enumerate() {
                match CardType::parse(t) {
                    Some(ty) => types.push(ty),
                    None => self.pr.at(
                        &format!("position.forbidden[{k}].types[{j}]"),
                        format!(
                            "`{t}` is not a card type: expected event, conspirator or journalist"
                        ),
                    ),
                }
            }
            self.s.forbidden.push(Forbid {
                side: f.side,
                part: f.part,
                types: TypeMask::of(&types),
            });
        }
    }
}

/// `initiative`, `momentum`, a track slot `ev2`, or one token `blue#3`.
fn token_ref(r: &Rules, s: &Setup, t: &str) -> Result<Moving, String> {
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
            s.track
                .get(slot as usize)
                .map(|t| Moving::Evidence(t.token))
                .ok_or_else(|| format!("no evidence token in track slot {slot}"))
        }
    }
}

/// A new game from a seed, or the position a scenario describes.
pub fn initial_state(r: &Rules, def: &ScenarioDef, pr: &mut Problems) -> Option<State> {
    initial_state_observed(r, def, pr, &mut crate::game::engine::Quiet)
}

/// [`initial_state`], telling `o` the events and forced moves on the way to
/// the first decision.
pub fn initial_state_observed<O: crate::game::engine::Observer>(
    r: &Rules,
    def: &ScenarioDef,
    pr: &mut Problems,
    o: &mut O,
) -> Option<State> {
    match &def.position {
        None => Some(State::new_observed(r, def.seed, o)),
        Some(p) => {
            let mut s = build_state(r, p, def.seed, pr)?;
            if let Err(e) = s.settle_observed(r, o) {
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
    format!("{:x}", crate::game::state::generator_state(rng))
}
