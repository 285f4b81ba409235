//! Choices as text: how scenario files, logs and the terminal name an
//! option (`nixon.gambit action`, `ask blue`, `ev2`, `e1a`, `pass`…), and
//! how track positions and token kinds are written (`N3`, `E2`, `0`;
//! `blue`, `blue/yellow`, `green*` for a token with the momentum symbol).

use super::choice::*;
use crate::game::model::*;
use crate::game::program::Instr;
use crate::game::rules::Rules;
use crate::game::state::*;

/// A track position: `0`, `E2` (Editor's side), `N3` (Nixon's side).
pub fn pos_name(pos: i8) -> String {
    match pos.signum() {
        0 => "0".to_string(),
        1 => format!("E{pos}"),
        _ => format!("N{}", -pos),
    }
}

/// Reads a track position as [`pos_name`] writes it (`0`, `E2`, `N3`, either
/// case; not checked against the track's length); `None` for anything else.
pub fn parse_pos(s: &str) -> Option<i8> {
    let s = s.trim();
    if s == "0" {
        return Some(0);
    }
    let mut chars = s.chars();
    let side = chars.next()?.to_string();
    let n: i8 = chars.as_str().parse().ok()?;
    if n <= 0 {
        return None;
    }
    match side.as_str() {
        "E" | "e" => Some(n),
        "N" | "n" => Some(-n),
        _ => None,
    }
}

/// A token kind: colours joined by `/`, `*` for the momentum symbol.
pub fn kind_name(colours: Colours, symbol: bool) -> String {
    let names: Vec<&str> = colours.iter().map(Colour::name).collect();
    format!("{}{}", names.join("/"), if symbol { "*" } else { "" })
}

/// Parses `blue`, `yellow/green`, `green*`, optionally with `#id`.
pub fn parse_kind(s: &str) -> Option<(Colours, bool, Option<u8>)> {
    let s = s.trim();
    let (body, id) = match s.split_once('#') {
        Some((b, i)) => (b, Some(i.trim().parse().ok()?)),
        None => (s, None),
    };
    let (body, symbol) = match body.strip_suffix('*') {
        Some(b) => (b, true),
        None => (body, false),
    };
    let mut list = Vec::new();
    for part in body.split('/') {
        list.push(Colour::parse(part.trim())?);
    }
    if list.is_empty() || list.len() > 2 {
        return None;
    }
    Some((Colours::of(&list), symbol, id))
}

fn short_id(id: &str) -> &str {
    id.split_once('.').map(|(_, s)| s).unwrap_or(id)
}

/// The canonical text of a choice.
pub fn format_choice(r: &Rules, s: &State, c: Choice) -> String {
    names(r, s, c).into_iter().next().unwrap_or_default()
}

/// A choice as a line of play shows it: a chance outcome by what it is
/// (`discard editor.ben_bradlee`, `draw blue`, `top nixon.chuck_colson`),
/// any other choice in its canonical text.
pub fn outcome_name(r: &Rules, s: &State, c: Choice) -> String {
    match c {
        Choice::Chance(_) => {
            let mut v = names(r, s, c);
            // `chance N` first, then what it is (the first name for a kind).
            if v.len() > 1 {
                v.swap_remove(1)
            } else {
                v.pop().unwrap_or_default()
            }
        }
        _ => format_choice(r, s, c),
    }
}

/// A choice described for a player: what it does, in words.
pub fn describe_choice(r: &Rules, s: &State, viewer: Side, c: Choice) -> String {
    match c {
        Choice::Play { card, part } => {
            format!("play {} for its {}", r.card(card).name, part.name())
        }
        Choice::Token(TokenRef::Evidence(slot)) => match s.track_token(slot) {
            Some(t) => {
                let (pos, face_up) = s.on_track(t).unwrap_or((0, false));
                if face_up || viewer == Side::Nixon {
                    let k = r.token(t);
                    format!(
                        "evidence ev{slot}: {}{} at {}",
                        kind_name(k.colours, k.momentum_symbol),
                        if face_up { "" } else { " (face down)" },
                        pos_name(pos)
                    )
                } else {
                    format!("evidence ev{slot}: face-down token at {}", pos_name(pos))
                }
            }
            None => format!("evidence ev{slot}"),
        },
        Choice::Token(TokenRef::Initiative) => format!(
            "the initiative token (at {})",
            s.initiative_token.map(pos_name).unwrap_or_default()
        ),
        Choice::Token(TokenRef::Momentum) => format!(
            "the momentum token (at {})",
            s.momentum_token.map(pos_name).unwrap_or_default()
        ),
        Choice::Ask(colour) => format!("ask Nixon for a face-down {colour} token"),
        Choice::Space(sp) => {
            let space = &r.board.spaces[sp.index()];
            match s.board_token(sp) {
                Some((t, up)) => format!(
                    "space {} ({} token {})",
                    space.id,
                    kind_name(r.token(t).colours, r.token(t).momentum_symbol),
                    if up { "face up" } else { "face down" }
                ),
                None => format!(
                    "space {} ({} slip)",
                    space.id,
                    r.board.slip(sp).map(|c| c.name()).unwrap_or("no")
                ),
            }
        }
        Choice::Picture(p) => format!("the picture of {}", r.pictures[p.index()].full_name),
        Choice::Card(card) => r.card(card).name.clone(),
        Choice::React(card) => format!("react with {}", r.card(card).name),
        Choice::Pass => "pass (no reaction)".to_string(),
        Choice::Branch(n) => match branch_label(r, s, n) {
            Some(l) => l,
            None => format!("option {n}"),
        },
        Choice::Skip => "stop here (choose nothing more)".to_string(),
        Choice::Chance(i) => format_choice(r, s, Choice::Chance(i)),
    }
}

fn branch_label(r: &Rules, s: &State, n: u8) -> Option<String> {
    let Some(Frame::Run(f)) = s.stack.last() else {
        return None;
    };
    match super::vm::code(r, f).get(f.pc as usize) {
        Some(Instr::Branch(b)) => b.label(n).map(str::to_string),
        _ => None,
    }
}

/// Every name a choice answers to; the first is canonical.
fn names(r: &Rules, s: &State, c: Choice) -> Vec<String> {
    match c {
        Choice::Play { card, part } => {
            let (id, name) = (&r.card(card).id, &r.card(card).name);
            vec![
                format!("{id} {}", part.name()),
                format!("{} {}", short_id(id), part.name()),
                format!("play {id} {}", part.name()),
                format!("play {} {}", short_id(id), part.name()),
                // The printed name (docs/formats/scenario.md, Notation).
                format!("{name} {}", part.name()),
                format!("play {name} {}", part.name()),
            ]
        }
        Choice::Token(TokenRef::Initiative) => vec!["initiative".into()],
        Choice::Token(TokenRef::Momentum) => vec!["momentum".into()],
        Choice::Token(TokenRef::Evidence(slot)) => {
            vec![format!("ev{slot}"), format!("evidence {slot}")]
        }
        Choice::Ask(c) => vec![format!("ask {c}")],
        Choice::Space(sp) => {
            let id = &r.board.spaces[sp.index()].id;
            vec![id.clone(), format!("space {id}"), format!("pin {id}")]
        }
        Choice::Picture(p) => {
            let name = &r.pictures[p.index()].name;
            vec![
                name.to_lowercase(),
                format!("picture {}", name.to_lowercase()),
            ]
        }
        Choice::Card(card) => {
            let (id, name) = (&r.card(card).id, &r.card(card).name);
            vec![
                id.clone(),
                short_id(id).to_string(),
                format!("card {id}"),
                name.clone(),
            ]
        }
        Choice::React(card) => {
            let (id, name) = (&r.card(card).id, &r.card(card).name);
            vec![
                format!("react {id}"),
                format!("react {}", short_id(id)),
                format!("react {name}"),
            ]
        }
        Choice::Pass => vec!["pass".into()],
        Choice::Branch(n) => {
            let mut v = vec![format!("branch {n}")];
            if let Some(l) = branch_label(r, s, n) {
                v.push(l.to_lowercase());
            }
            v
        }
        Choice::Skip => vec!["skip".into(), "stop".into(), "none".into()],
        Choice::Chance(i) => {
            let mut v = vec![format!("chance {i}")];
            if let Some(card) = dealt_card(r, s, i) {
                // Explicit deals: the card of the deck chance draws.
                let id = &r.card(card).id;
                v.push(format!("deal {id}"));
                v.push(format!("deal {}", short_id(id)));
                v.push(format!("deal {}", r.card(card).name));
                return v;
            }
            match s.stack.last() {
                Some(Frame::Run(f))
                    if matches!(chance_instr(r, f), Some(Instr::DiscardRandom(_))) =>
                {
                    if let Some(Instr::DiscardRandom(crate::game::program::DiscardRandom {
                        who,
                        ..
                    })) = chance_instr(r, f)
                    {
                        let side = who.resolve(f.actor);
                        if let Some(card) = s.hands[side].get(i as usize) {
                            v.push(format!("discard {}", r.card(*card).id));
                        }
                    }
                }
                Some(Frame::Run(f))
                    if matches!(chance_instr(r, f), Some(Instr::PlayTopCard(_))) =>
                {
                    // The deck is reshuffled: the card that comes out on top.
                    if let Some(card) = s.discards[f.actor].get(i as usize) {
                        let id = &r.card(*card).id;
                        v.push(format!("top {id}"));
                        v.push(format!("top {}", short_id(id)));
                    }
                }
                _ => {
                    if let Some(t) = s.bag.get(i as usize) {
                        let k = r.token(*t);
                        v.push(format!("draw {}", kind_name(k.colours, k.momentum_symbol)));
                        // A two-coloured kind may be written in either order.
                        let names: Vec<&str> = k.colours.iter().map(Colour::name).collect();
                        if names.len() == 2 {
                            let star = if k.momentum_symbol { "*" } else { "" };
                            v.push(format!("draw {}/{}{star}", names[1], names[0]));
                        }
                    }
                }
            }
            v
        }
    }
}

/// With explicit deals, the card chance outcome `i` draws from a deck (in
/// the deal of R4.1 or for an action's "draw the top card"), if it is one.
fn dealt_card(r: &Rules, s: &State, i: u8) -> Option<CardId> {
    if !s.explicit_deals {
        return None;
    }
    let side = match s.stack.last()? {
        Frame::Setup {
            dealt: false,
            cards_dealt,
            ..
        } => s.dealing_to(r, *cards_dealt)?,
        Frame::Run(f) if matches!(chance_instr(r, f), Some(Instr::PlayTopCard(_))) => f.actor,
        _ => return None,
    };
    s.decks[side].get(i as usize).copied()
}

fn chance_instr(r: &Rules, f: &RunFrame) -> Option<Instr> {
    super::vm::code(r, f).get(f.pc as usize).cloned()
}

/// The option `want` seems to mean but does not name: a typo or two from
/// one of its names, or naming it in part (`woods action` for
/// `editor.recruit_woods action`): ` (did you mean …?)` with that option's
/// own name, which is an answer the prompt takes; nothing when no option
/// is that close. Only the options are looked at: a card that is not one
/// is never suggested.
fn did_you_mean(r: &Rules, s: &State, want: &str, options: &[Choice]) -> String {
    if want.len() < 3 {
        return String::new();
    }
    let named: Vec<Vec<String>> = options.iter().map(|c| names(r, s, *c)).collect();
    // An answer more than twice as long as every name is further from each
    // than the guess allows (at least its length less the name's, more than
    // an eighth of it); its edit distances would cost its length times each
    // name's, for nothing: seconds for a pasted megabyte.
    let longest = named.iter().flatten().map(String::len).max().unwrap_or(0);
    if want.len() > 2 * longest + 16 {
        return String::new();
    }
    let words: Vec<&str> = want.split_whitespace().collect();
    let close = named
        .into_iter()
        .filter_map(|names| {
            let distance = names
                .iter()
                .map(|n| {
                    let n = n.to_lowercase();
                    if words.iter().all(|w| n.contains(w)) {
                        1
                    } else {
                        crate::diag::edit_distance(want, &n)
                    }
                })
                .min()?;
            Some((distance, names[0].len(), names[0].clone()))
        })
        .min();
    match close {
        Some((d, _, name)) if d <= 2.max(want.len() / 8) => format!(" (did you mean `{name}`?)"),
        _ => String::new(),
    }
}

/// An answer as a refusal quotes it: whole if short, else its start.
fn quoted(text: &str) -> String {
    crate::game::wording::clipped(text.trim())
}

/// Finds the option a text names, among `options`. Accepts every name of
/// `names`, case- and space-insensitively.
pub fn parse_choice(
    r: &Rules,
    s: &State,
    text: &str,
    options: &[Choice],
) -> Result<Choice, String> {
    let norm = |t: &str| {
        t.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let want = norm(text);
    let matches: Vec<Choice> = options
        .iter()
        .copied()
        .filter(|c| names(r, s, *c).iter().any(|n| norm(n) == want))
        .collect();
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "`{}` is not one of the options{}: {}",
            quoted(text),
            did_you_mean(r, s, &want, options),
            options
                .iter()
                .map(|c| format_choice(r, s, *c))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        many => Err(format!(
            "`{}` is ambiguous: it names {}",
            quoted(text),
            many.iter()
                .map(|c| format_choice(r, s, *c))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip() {
        for p in -5..=5 {
            assert_eq!(parse_pos(&pos_name(p)), Some(p));
        }
        assert_eq!(parse_pos("X3"), None);
        assert_eq!(parse_pos("N0"), None);
        assert_eq!(parse_pos("É2"), None);
        assert_eq!(parse_pos(""), None);
    }

    #[test]
    fn a_refusal_quotes_a_long_answer_by_its_start() {
        assert_eq!(quoted("  pass "), "pass");
        let long = "é".repeat(100);
        assert_eq!(quoted(&long), format!("{}…", "é".repeat(60)));
    }

    #[test]
    fn kinds_parse() {
        assert_eq!(
            parse_kind("blue/yellow*#3"),
            Some((Colours::of(&[Colour::Blue, Colour::Yellow]), true, Some(3)))
        );
        assert_eq!(parse_kind("purple"), None);
    }
}
