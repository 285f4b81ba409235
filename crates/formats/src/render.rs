//! Positions as text for people: the research track with every token, the
//! evidence board as a hex diagram, momentum cards, hands, piles and what is
//! in play. Rendered for one viewer (only what they may see) or for an
//! omniscient reader (scenario output, replays).

use crate::game::engine::notation::{kind_name, pos_name};
use crate::game::model::*;
use crate::game::rules::{Rules, SpaceKind};
use crate::game::state::*;
use std::fmt::Write;

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// ANSI colours.
    pub colour: bool,
    /// Whose eyes: `None` shows everything.
    pub viewer: Option<Side>,
}

impl Style {
    pub fn plain(viewer: Option<Side>) -> Style {
        Style {
            colour: false,
            viewer,
        }
    }

    fn sees_hidden_track(&self) -> bool {
        self.viewer != Some(Side::Editor)
    }

    fn sees_hand(&self, side: Side) -> bool {
        self.viewer.is_none() || self.viewer == Some(side)
    }

    fn paint(&self, text: &str, colours: Colours) -> String {
        if !self.colour || colours.is_empty() || colours.is_joker() {
            return text.to_string();
        }
        let code = match colours.iter().next() {
            Some(Colour::Blue) => "34",
            Some(Colour::Yellow) => "33",
            Some(Colour::Green) => "32",
            None => return text.to_string(),
        };
        format!("\x1b[{code};1m{text}\x1b[0m")
    }

    pub fn bold(&self, text: &str) -> String {
        if self.colour {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// The colours' letters explained: `B blue, Y yellow, G green`.
fn colour_letters() -> String {
    Colour::ALL
        .iter()
        .map(|c| format!("{} {}", colour_letter(*c), c.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A colour's letter, for text without colours: B, Y, G.
pub fn colour_letter(c: Colour) -> char {
    c.name()
        .chars()
        .next()
        .map(|l| l.to_ascii_uppercase())
        .unwrap_or('?')
}

/// Short names of the informant pictures for the board diagram, each the
/// shortest prefix of at least four letters that no other picture shares
/// (the legend under the diagram gives the full names).
pub fn informant_abbreviations(r: &Rules) -> Vec<String> {
    let names: Vec<Vec<char>> = r
        .pictures
        .iter()
        .map(|p| p.name.chars().collect())
        .collect();
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut n = 4.min(name.len());
            while n < name.len()
                && names
                    .iter()
                    .enumerate()
                    .any(|(j, o)| j != i && o.len() >= n && o[..n] == name[..n])
            {
                n += 1;
            }
            name[..n].iter().collect()
        })
        .collect()
}

/// A token kind in words, coloured.
pub fn token_text(r: &Rules, st: &Style, t: TokenId) -> String {
    let k = r.token(t);
    st.paint(&kind_name(k.colours, k.momentum_symbol), k.colours)
}

/// A card in one line: name, value and colours.
pub fn card_line(r: &Rules, st: &Style, c: CardId) -> String {
    let card = r.card(c);
    let colours = st.paint(&card.colours.to_string(), card.colours);
    let reaction = if card.is_reaction() { ", reaction" } else { "" };
    format!(
        "{} [{} {}, {}{}]",
        card.name, card.value, colours, card.card_type, reaction
    )
}

/// The columns `text` takes on a terminal: its characters, less the
/// colour codes (`ESC [ … m`), which take none.
pub fn visible_width(text: &str) -> usize {
    // Most text has no colour code: its characters, counted at once.
    if !text.as_bytes().contains(&0x1b) {
        return text.chars().count();
    }
    let mut width = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // Up to and including the code's final letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            width += 1;
        }
    }
    width
}

/// Splits text into lines of at most `width` columns, at spaces.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    // The line's width, kept as words are added (measuring the whole line
    // again at each word made a long text's wrap quadratic).
    let mut line_width = 0;
    for word in text.split_whitespace() {
        let word_width = visible_width(word);
        if !line.is_empty() && line_width + 1 + word_width > width {
            lines.push(std::mem::take(&mut line));
            line_width = 0;
        }
        if !line.is_empty() {
            line.push(' ');
            line_width += 1;
        }
        line.push_str(word);
        line_width += word_width;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The columns a terminal has at least: every line of a position, as
/// `position_with` draws it on the shipped board, fits in them.
pub const WIDTH: usize = 80;

/// `label` then `items`, comma-separated, from column 2 in lines that fit
/// in [`WIDTH`]: an item that does not fit on a line starts the next,
/// indented 4 columns more (it is cut at its own spaces only if it is
/// longer than a line). `—` for no items.
pub fn write_list(out: &mut String, label: &str, items: &[String]) {
    if items.is_empty() {
        let _ = writeln!(out, "  {label}—");
        return;
    }
    let room = WIDTH - 2;
    let mut line = label.to_string();
    let mut first = true;
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        let taken = visible_width(&line);
        let fits = taken + 1 + visible_width(&piece) <= room - if first { 0 } else { 4 };
        if i > 0 && !fits {
            write_indented(out, &line, first);
            line.clear();
            first = false;
        } else if i > 0 {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    write_indented(out, &line, first);
}

/// One line of `write_list`, cut at its spaces if it is still too long.
fn write_indented(out: &mut String, line: &str, first: bool) {
    let indent = if first { "  " } else { "      " };
    if indent.len() + visible_width(line) <= WIDTH {
        let _ = writeln!(out, "{indent}{line}");
        return;
    }
    for (i, part) in wrap(line, WIDTH - 6).iter().enumerate() {
        let indent = if i == 0 { indent } else { "      " };
        let _ = writeln!(out, "{indent}{part}");
    }
}

/// `text` from column 2 in lines that fit in [`WIDTH`], the lines after the
/// first indented 4 columns more.
pub fn write_wrapped(out: &mut String, text: &str) {
    for (i, line) in wrap(text, WIDTH - 6).iter().enumerate() {
        let indent = if i == 0 { "  " } else { "      " };
        let _ = writeln!(out, "{indent}{line}");
    }
}

/// `parts` joined by `sep` in as few lines as fit in [`WIDTH`], the lines
/// after the first indented 2 columns.
pub fn join_fitting(parts: &[String], sep: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for part in parts {
        if !line.is_empty() {
            if visible_width(&line) + visible_width(sep) + visible_width(part) <= WIDTH {
                line.push_str(sep);
            } else {
                lines.push(std::mem::take(&mut line));
                line.push_str("  ");
            }
        }
        line.push_str(part);
    }
    lines.push(line);
    lines
}

fn names_of(r: &Rules, list: &[CardId]) -> Vec<String> {
    list.iter().map(|c| r.card(*c).name.clone()).collect()
}

/// The research track: one line per token, a marker under its space.
///
/// The shipped track (5 spaces a side) takes 4 columns a space after a
/// 26-column label. A house rule's longer track (up to 10 a side) takes 3
/// a space, so that it still fits in [`WIDTH`]; a label too long for the
/// room left goes on a line of its own above its markers, so that no
/// marker is ever pushed off its space.
pub fn track(r: &Rules, s: &State, st: &Style) -> String {
    let len = r.numbers.track_length;
    let spaces = (2 * len + 1) as usize;
    // Each row: its label, its marker, and the token's space or words in
    // place of the markers. The markers are the board legend's: ● face
    // up (the initiative and momentum tokens too), ■ face down.
    let mut rows: Vec<(String, &str, Result<i8, &str>)> = Vec::new();
    let initiative = match s.initiative_token() {
        Some(p) => Ok(p),
        // At the game's end it may have been taken off in the evaluation
        // (R7), not gained: say only where it is.
        None if s.is_over() => Err("not on the track"),
        None => Err("gained this round"),
    };
    rows.push(("initiative".into(), "●", initiative));
    let momentum = s.momentum_token().ok_or("not on the track");
    rows.push(("momentum".into(), "●", momentum));
    for (slot, t) in s.track().iter().enumerate() {
        if let Some((pos, up)) = s.on_track(*t) {
            let what = track_token_name(r, st, s, *t, up);
            let marker = if up { "●" } else { "■" };
            rows.push((format!("ev{slot} {what}"), marker, Ok(pos)));
        }
    }
    let cell = if 26 + spaces * 4 <= WIDTH { 4 } else { 3 };
    let room = WIDTH - spaces * cell;
    let longest = rows.iter().map(|(l, _, _)| l.chars().count() + 1).max();
    let label_w = longest.unwrap_or(0).clamp(26.min(room), room);
    // In 3-column cells the names would touch (`N10N9`): the header then
    // gives each space's number only, and the note which side is which.
    let numbers_only = cell == 3;
    let mut out = String::new();
    let mut header = format!("{:label_w$}", "");
    for p in -len..=len {
        let name = match (numbers_only, p == -len || p == len) {
            (true, _) => p.abs().to_string(),
            (false, true) => format!("{}*", pos_name(p)),
            (false, false) => pos_name(p),
        };
        let _ = write!(header, "{name:^cell$}");
    }
    let _ = writeln!(out, "{}", header.trim_end());
    // On its own line: beside the header it took the line past 80 columns.
    let note = if numbers_only {
        format!("Nixon's side N{len} … N1 ◀ 0 ▶ E1 … E{len} Editor's side; the ends are gained")
    } else {
        "Nixon's side ◀ ▶ Editor's side; * = gained".to_string()
    };
    // Under the header, or as far left as it must go to fit.
    let indent = label_w.min(WIDTH.saturating_sub(visible_width(&note)));
    let _ = writeln!(out, "{:indent$}{note}", "");
    for (label, marker, at) in rows {
        let pos = match at {
            Ok(pos) => pos,
            Err(words) => {
                let _ = writeln!(out, "{label:label_w$}{words}");
                continue;
            }
        };
        let mut line = if label.chars().count() < label_w {
            format!("{label:label_w$}")
        } else {
            let _ = writeln!(out, "{label}");
            " ".repeat(label_w)
        };
        for p in -len..=len {
            let _ = write!(line, "{:^cell$}", if p == pos { marker } else { "·" });
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// One space drawn in the board's diagram.
struct Cell {
    /// Its first column.
    x: usize,
    text: String,
    /// The columns `text` takes (its colour codes take none).
    visible: usize,
    space: SpaceId,
    /// For an informant, the picture, whose full name replaces the short
    /// one where it fits.
    picture: Option<usize>,
}

/// Columns between two hex neighbours of one row (a diagram row is every
/// other line: the threads between rows go on the lines between).
const CELL_STEP: usize = 10;

/// The evidence board drawn: its diagram, and what the diagram leaves to
/// words.
struct BoardDrawing {
    /// The diagram's lines, each from column 2.
    diagram: String,
    /// `short = full name` of each informant cut short in the diagram.
    shortened: Vec<String>,
    /// The threads the diagram cannot draw, as `a–b`.
    undrawn: Vec<String>,
}

impl BoardDrawing {
    /// The names cut short and the threads not drawn, each list wrapped.
    fn write_notes(&self, out: &mut String) {
        // Names cut short to fit are spelled out, never left cut.
        if !self.shortened.is_empty() {
            write_list(out, "informants: ", &self.shortened);
        }
        if !self.undrawn.is_empty() {
            write_list(out, "threads not drawn above: ", &self.undrawn);
        }
    }
}

/// The evidence board as a hex diagram with its threads, then its tokens
/// in words.
pub fn board(r: &Rules, s: &State, st: &Style) -> String {
    let drawing = draw_board(r, s, st);
    let mut out = drawing.diagram.clone();
    let slips = if st.colour {
        "space ids coloured by slip".to_string()
    } else {
        format!("a space's letter is its slip: {}", colour_letters())
    };
    write_wrapped(
        &mut out,
        &format!(
            "({slips}; ─ \\ / threads; ● face-up token{}, ■ face-down token, · empty; ↑ recruited informant, ↓ secured by Nixon; * after a token's colours: its momentum symbol)",
            if st.colour { "" } else { " (its colours under tokens)" }
        ),
    );
    drawing.write_notes(&mut out);
    let mut tokens = Vec::new();
    for (i, sp) in r.board.spaces.iter().enumerate() {
        if let Some((t, up)) = s.board_token(SpaceId(i as u8)) {
            tokens.push(format!(
                "{} {} {}",
                sp.id,
                token_text(r, st, t),
                if up { "up" } else { "down" }
            ));
        }
    }
    if !tokens.is_empty() {
        write_list(&mut out, "tokens: ", &tokens);
    }
    let _ = writeln!(
        out,
        "  informants connected to Nixon: {} of {} needed",
        crate::game::engine::connected_informants(r, s),
        r.numbers.informants_to_connect
    );
    out
}

/// The diagram of `board`.
///
/// A space at axial `(q, r)` is drawn on line `2r` at column `5(2q + r)`,
/// so each of its six hex neighbours is 10 columns along its own line or
/// 5 columns along the line two below or above. A thread between two
/// neighbours of one line is a run of `─` between their cells; between
/// lines it is a `\` or `/` on the line in between. A thread that joins
/// spaces which are not hex neighbours (a designer's board may have
/// them) cannot be drawn: such threads are listed under the diagram, so
/// that every thread the engine walks (R8.3) is on the screen.
fn draw_board(r: &Rules, s: &State, st: &Style) -> BoardDrawing {
    let b = &r.board;
    let (mut min_x, mut min_y, mut max_y) = (i32::MAX, i32::MAX, i32::MIN);
    for sp in &b.spaces {
        min_x = min_x.min(2 * sp.at.0 as i32 + sp.at.1 as i32);
        min_y = min_y.min(sp.at.1 as i32);
        max_y = max_y.max(sp.at.1 as i32);
    }
    let column = |at: (i8, i8)| ((2 * at.0 as i32 + at.1 as i32 - min_x) as usize) * CELL_STEP / 2;
    let row = |at: (i8, i8)| (at.1 as i32 - min_y) as usize;
    let abbrev = informant_abbreviations(r);
    let mut out = String::new();
    let mut rows: Vec<Vec<Cell>> = (min_y..=max_y).map(|_| Vec::new()).collect();
    for (i, sp) in b.spaces.iter().enumerate() {
        let space = SpaceId(i as u8);
        let mut picture = None;
        let (text, visible) = match sp.kind {
            SpaceKind::Nixon => (st.bold("NIXON"), 5),
            SpaceKind::Informant(p) => {
                let name = abbrev[p.index()].clone();
                let mark = match s.pictures()[p.index()] {
                    PicLoc::Supply => " ",
                    PicLoc::Pinned { face_up: true } => "↑",
                    PicLoc::Pinned { face_up: false } => "↓",
                };
                picture = Some(p.index());
                (format!("{name}{mark}"), name.chars().count() + 1)
            }
            SpaceKind::Evidence(c) => {
                let mark = match s.board_token(space) {
                    None => "·".to_string(),
                    Some((t, true)) => st.paint("●", r.token(t).colours),
                    Some((_, false)) => "■".to_string(),
                };
                // Without colours the slip's colour is a letter after the id.
                let label = if st.colour {
                    st.paint(&sp.id, Colours::single(c))
                } else {
                    format!("{}{}", sp.id, colour_letter(c))
                };
                let visible = sp.id.chars().count() + 1 + usize::from(!st.colour);
                (format!("{label}{mark}"), visible)
            }
        };
        rows[row(sp.at)].push(Cell {
            x: column(sp.at),
            text,
            visible,
            space,
            picture,
        });
    }
    // Each thread once, from its first space to its second.
    let threads: Vec<(SpaceId, SpaceId)> = b
        .neighbours
        .iter()
        .enumerate()
        .flat_map(|(i, ns)| {
            ns.iter()
                .filter(move |n| n.index() > i)
                .map(move |n| (SpaceId(i as u8), *n))
        })
        .collect();
    let joined = |a: SpaceId, c: SpaceId| b.neighbours[a.index()].contains(&c);
    let mut drawn = vec![false; threads.len()];
    // Pictures whose full name fits before the next cell of its row.
    let mut shortened = vec![false; r.pictures.len()];
    for cells in rows.iter_mut() {
        cells.sort_by_key(|c| c.x);
        let next_x: Vec<usize> = cells
            .iter()
            .skip(1)
            .map(|c| c.x)
            .chain([usize::MAX])
            .collect();
        for (cell, next) in cells.iter_mut().zip(next_x) {
            let Some(p) = cell.picture else { continue };
            let full = &r.pictures[p].name;
            let short_len = abbrev[p].chars().count();
            let full_len = full.chars().count();
            if full_len > short_len {
                if cell.x.saturating_add(full_len + 2) <= next {
                    cell.text = format!(
                        "{full}{}",
                        cell.text.chars().skip(short_len).collect::<String>()
                    );
                    cell.visible = full_len + 1;
                } else {
                    shortened[p] = true;
                }
            }
        }
    }
    let mut lines = Vec::new();
    for (y, cells) in rows.iter().enumerate() {
        if let Some(above) = y.checked_sub(1).map(|a| &rows[a]) {
            // The line between this row and the one above: a thread from
            // a cell above to the cell 5 columns right of it is `\`, to
            // the cell 5 columns left `/`, each about halfway.
            let mut between: Vec<char> = Vec::new();
            for a in above {
                for h in cells {
                    let at = if h.x == a.x + CELL_STEP / 2 {
                        Some((a.x + 3, '\\'))
                    } else if h.x + CELL_STEP / 2 == a.x {
                        Some((a.x - 1, '/'))
                    } else {
                        None
                    };
                    let Some((c, mark)) = at else { continue };
                    if joined(a.space, h.space) {
                        if between.len() <= c {
                            between.resize(c + 1, ' ');
                        }
                        between[c] = mark;
                        mark_drawn(&threads, &mut drawn, a.space, h.space);
                    }
                }
            }
            lines.push(between.into_iter().collect::<String>());
        }
        // The diagram's row, with a thread to the next cell of the row as
        // `─` across the gap (a space either side where there is room).
        let mut text = String::new();
        let mut col = 0;
        for (k, cell) in cells.iter().enumerate() {
            if cell.x > col {
                text.push_str(&" ".repeat(cell.x - col));
                col = cell.x;
            }
            text.push_str(&cell.text);
            col += cell.visible;
            let Some(next) = cells.get(k + 1) else { break };
            let gap = next.x.saturating_sub(col);
            let beside = next.x == cell.x + CELL_STEP;
            if beside && gap > 0 && joined(cell.space, next.space) {
                let dashes = if gap >= 3 { gap - 2 } else { gap };
                let pad = " ".repeat((gap - dashes) / 2);
                let _ = write!(text, "{pad}{}{pad}", "─".repeat(dashes));
                col = next.x;
                mark_drawn(&threads, &mut drawn, cell.space, next.space);
            }
        }
        lines.push(text);
    }
    for line in lines {
        let _ = writeln!(out, "  {}", line.trim_end());
    }
    BoardDrawing {
        diagram: out,
        shortened: (0..r.pictures.len())
            .filter(|p| shortened[*p])
            .map(|p| format!("{} = {}", abbrev[p], r.pictures[p].name))
            .collect(),
        undrawn: threads
            .iter()
            .zip(&drawn)
            .filter(|(_, drawn)| !**drawn)
            .map(|((a, c), _)| format!("{}–{}", b.spaces[a.index()].id, b.spaces[c.index()].id))
            .collect(),
    }
}

/// Notes that the thread between `a` and `b` is in the diagram.
fn mark_drawn(threads: &[(SpaceId, SpaceId)], drawn: &mut [bool], a: SpaceId, b: SpaceId) {
    let (a, b) = if a.index() < b.index() {
        (a, b)
    } else {
        (b, a)
    };
    if let Some(i) = threads.iter().position(|t| *t == (a, b)) {
        drawn[i] = true;
    }
}

/// Momentum cards, supply and the initiative.
pub fn momentum(r: &Rules, s: &State) -> String {
    let mut out = String::new();
    for side in [Side::Editor, Side::Nixon] {
        let card = &r.momentum_cards[side];
        let n = s.momentum_cards()[side] as usize;
        let boxes: String = (0..card.spaces.len())
            .map(|i| if i < n { '■' } else { '□' })
            .collect();
        let next = card
            .spaces
            .get(n)
            .and_then(|sp| sp.title.clone())
            .map(|t| format!(" — next: {t}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:<7} momentum card {boxes} ({n}/{}){next}",
            side.name(),
            card.spaces.len()
        );
    }
    let _ = writeln!(
        out,
        "  momentum supply {} · removed {} · initiative: {}",
        s.momentum_supply(),
        s.momentum_removed(),
        s.initiative()
    );
    out
}

/// What a track token is called for this viewer: its kind, or "face down"
/// with the colours everyone knows it lacks (R5.6: "face down, not blue").
fn track_token_name(r: &Rules, st: &Style, s: &State, t: TokenId, up: bool) -> String {
    if up || st.sees_hidden_track() {
        let k = r.token(t);
        let name = kind_name(k.colours, k.momentum_symbol);
        format!("{name}{}", if up { "" } else { " (down)" })
    } else {
        let lacks: Vec<&str> = s.ruled_out(t).iter().map(|c| c.name()).collect();
        if lacks.is_empty() {
            "face down".to_string()
        } else {
            format!("face down, not {}", lacks.join(" nor "))
        }
    }
}

/// The research track in a few lines: each occupied space and what is on it.
pub fn track_compact(r: &Rules, s: &State, st: &Style) -> String {
    let len = r.numbers.track_length;
    let mut at: Vec<Vec<String>> = vec![Vec::new(); (2 * len + 1) as usize];
    let mut off = Vec::new();
    let mut put = |pos: Option<i8>, what: String| match pos {
        Some(p) => at[(p + len) as usize].push(what),
        None => off.push(what),
    };
    put(s.initiative_token(), "initiative".into());
    put(s.momentum_token(), "momentum".into());
    for (slot, t) in s.track().iter().enumerate() {
        if let Some((pos, up)) = s.on_track(*t) {
            put(
                Some(pos),
                format!("ev{slot} {}", track_token_name(r, st, s, *t, up)),
            );
        }
    }
    let mut out = format!(
        "Track ({}* Nixon's end … 0 … Editor's end {}*; * = gained)\n",
        pos_name(-len),
        pos_name(len)
    );
    for (i, tokens) in at.iter().enumerate() {
        if !tokens.is_empty() {
            let name = pos_name(i as i8 - len);
            write_list(&mut out, &format!("{name:<4}"), tokens);
        }
    }
    if !off.is_empty() {
        write_list(&mut out, "off the track: ", &off);
    }
    out
}

/// The position on one short screen (`play --compact`): the track by
/// space, the momentum in a line, the board diagram, the viewer's hand one
/// card a line without action texts, and the rest in a few lines.
pub fn position_compact(r: &Rules, s: &State, st: &Style) -> String {
    let mut out = track_compact(r, s, st);
    let boxes = |side: Side| {
        let n = s.momentum_cards()[side] as usize;
        let total = r.momentum_cards[side].spaces.len();
        // The boxes say the count: no `n/total` after them, so that the
        // line fits with the initiative's holder on it.
        let b: String = (0..total).map(|i| if i < n { '■' } else { '□' }).collect();
        format!("{} {b}", side.name())
    };
    let parts = [
        format!("Momentum: {}", boxes(Side::Editor)),
        boxes(Side::Nixon),
        format!("supply {}", s.momentum_supply()),
        format!("removed {}", s.momentum_removed()),
        format!("initiative: {}", s.initiative()),
    ];
    for line in join_fitting(&parts, " · ") {
        let _ = writeln!(out, "{line}");
    }
    // The board in fewer lines than `board`'s: its heading and a short
    // legend in the diagram's empty corners where they fit (on the
    // shipped board they do: two lines saved), the tokens by their
    // colours' letters.
    let drawing = draw_board(r, s, st);
    let mut diagram: Vec<String> = drawing.diagram.lines().map(str::to_string).collect();
    let heading = [
        "Evidence board".to_string(),
        format!(
            "{} of {} connected to Nixon",
            crate::game::engine::connected_informants(r, s),
            r.numbers.informants_to_connect
        ),
    ];
    if !in_top_left(&mut diagram, &heading) {
        let _ = writeln!(out, "{}: {}", heading[0], heading[1]);
    }
    let letters = colour_letters();
    let legend = [
        format!("{letters}; * momentum"),
        "● up ■ down; ↑ recruited ↓ secured".to_string(),
    ];
    let legend_fits = in_bottom_right(&mut diagram, &legend);
    for line in &diagram {
        let _ = writeln!(out, "{line}");
    }
    if !legend_fits {
        let _ = writeln!(out, "  ({}; {})", legend[0], legend[1]);
    }
    drawing.write_notes(&mut out);
    let tokens: Vec<String> = r
        .board
        .spaces
        .iter()
        .enumerate()
        .filter_map(|(i, sp)| {
            let (t, up) = s.board_token(SpaceId(i as u8))?;
            let k = r.token(t);
            let letters: String = k.colours.iter().map(colour_letter).collect();
            let star = if k.momentum_symbol { "*" } else { "" };
            Some(format!(
                "{} {letters}{star}{}",
                sp.id,
                if up { "●" } else { "■" }
            ))
        })
        .collect();
    if !tokens.is_empty() {
        write_list(&mut out, "tokens: ", &tokens);
    }
    for side in [Side::Editor, Side::Nixon] {
        if st.sees_hand(side) {
            let _ = writeln!(
                out,
                "{} hand ({}; `cards` shows their actions):",
                side.name(),
                s.hand(side).len()
            );
            for c in s.hand(side) {
                let _ = writeln!(out, "  {}", card_line(r, st, *c));
            }
        }
    }
    let counts: Vec<String> = [Side::Editor, Side::Nixon]
        .iter()
        .map(|side| {
            let hand = if st.sees_hand(*side) {
                String::new()
            } else {
                format!("hand {}, ", s.hand(*side).len())
            };
            format!(
                "{} {hand}deck {}, discards {}",
                side.name(),
                s.deck(*side).len(),
                s.discards(*side).len()
            )
        })
        .collect();
    let mut parts = vec![format!("Cards: {}", counts[0])];
    parts.extend(counts[1..].iter().cloned());
    parts.push(format!("removed {}", s.removed().len()));
    parts.push(format!("bag {}", s.bag().len()));
    for line in join_fitting(&parts, " · ") {
        let _ = writeln!(out, "{line}");
    }
    for line in position_notes(r, s) {
        write_wrapped(&mut out, line.trim_start());
    }
    out
}

/// Writes `pieces` into the blank starts of the first lines of `lines`
/// (a diagram from column 2), one a line, if each leaves two blank
/// columns before the line's drawing. Whether they fitted.
fn in_top_left(lines: &mut [String], pieces: &[String]) -> bool {
    // Diagram lines are spaces and drawing: leading bytes are columns.
    let blank = |l: &str| l.len() - l.trim_start().len();
    let fits = lines.len() >= pieces.len()
        && lines
            .iter()
            .zip(pieces)
            .all(|(l, p)| blank(l) >= 2 + visible_width(p) + 2);
    if fits {
        for (l, p) in lines.iter_mut().zip(pieces) {
            let pad = blank(l) - 2 - visible_width(p);
            *l = format!("  {p}{}{}", " ".repeat(pad), l.trim_start());
        }
    }
    fits
}

/// Writes `pieces` after the last lines of `lines`, one a line, all from
/// one column three past the widest of those lines, if they fit in
/// [`WIDTH`]. Whether they fitted.
fn in_bottom_right(lines: &mut [String], pieces: &[String]) -> bool {
    let Some(first) = lines.len().checked_sub(pieces.len()) else {
        return false;
    };
    let column = lines[first..]
        .iter()
        .map(|l| visible_width(l))
        .max()
        .unwrap_or(0)
        + 3;
    let widest = pieces.iter().map(|p| visible_width(p)).max().unwrap_or(0);
    if column + widest > WIDTH {
        return false;
    }
    for (l, p) in lines[first..].iter_mut().zip(pieces) {
        let pad = column - visible_width(l);
        *l = format!("{l}{}{p}", " ".repeat(pad));
    }
    true
}

/// Restrictions and plays under way, one line each (rarely any).
fn position_notes(r: &Rules, s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for f in s.forbidden() {
        out.push(format!(
            "  this round {} may not use the {} part of: {}",
            f.side,
            f.part.name(),
            f.types
                .types()
                .iter()
                .map(|t| t.name())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let plays: Vec<String> = s
        .stack()
        .iter()
        .filter_map(|f| match f {
            Frame::Play(p) => Some(format!(
                "{} plays {}{}{}",
                p.player,
                r.card(p.card).name,
                p.part
                    .map(|x| format!(" for its {}", x.name()))
                    .unwrap_or_default(),
                if p.cancelled.is_some() {
                    " (cancelled)"
                } else {
                    ""
                }
            )),
            _ => None,
        })
        .collect();
    if !plays.is_empty() {
        out.push(format!("  on the table: {}", plays.join(" ← ")));
    }
    out
}

/// The whole position.
pub fn position(r: &Rules, s: &State, st: &Style) -> String {
    position_with(r, s, st, false)
}

/// The whole position; with `actions`, each visible hand card's action text
/// is printed under it (the terminal's screen, where the player chooses).
pub fn position_with(r: &Rules, s: &State, st: &Style, actions: bool) -> String {
    let mut out = String::new();
    let phase = match s.phase() {
        Phase::Initial => "initial phase",
        Phase::Cards => "card phase",
        Phase::Evaluation => "evaluation phase",
        Phase::Over => "game over",
    };
    let _ = writeln!(
        out,
        "{}",
        st.bold(&format!("Round {} — {phase}", s.round()))
    );
    if let Some(o) = s.outcome() {
        let _ = writeln!(
            out,
            "{}",
            st.bold(&format!("{} wins: {}.", o.winner, o.cause.describe()))
        );
    }
    let _ = writeln!(out, "\nResearch track");
    out.push_str(&track(r, s, st));
    let _ = writeln!(out, "\nMomentum");
    out.push_str(&momentum(r, s));
    let _ = writeln!(out, "\nEvidence board");
    out.push_str(&board(r, s, st));
    let supply: Vec<String> = s
        .pictures()
        .iter()
        .enumerate()
        .filter(|(_, p)| **p == PicLoc::Supply)
        .map(|(i, _)| r.pictures[i].name.clone())
        .collect();
    write_list(&mut out, "pictures in the supply: ", &supply);
    let _ = writeln!(out, "\nCards");
    for side in [Side::Editor, Side::Nixon] {
        if st.sees_hand(side) {
            let _ = writeln!(out, "  {:<7} hand ({}):", side.name(), s.hand(side).len());
            for c in s.hand(side) {
                let _ = writeln!(out, "    {}", card_line(r, st, *c));
                if actions {
                    for line in wrap(&r.card(*c).action_text, 72) {
                        let _ = writeln!(out, "        {line}");
                    }
                }
            }
        } else {
            let _ = writeln!(
                out,
                "  {:<7} hand: {}",
                side.name(),
                crate::game::wording::count(s.hand(side).len(), "card")
            );
        }
        let label = format!(
            "{:<7} deck: {} · discard pile: ",
            side.name(),
            crate::game::wording::count(s.deck(side).len(), "card"),
        );
        write_list(&mut out, &label, &names_of(r, s.discards(side)));
    }
    write_list(
        &mut out,
        "removed from the game: ",
        &names_of(r, s.removed()),
    );
    if st.viewer.is_none() {
        // The whole position (a puzzle's): what a draw may give, by kind,
        // as the solver weighs it; a bag has no order to show.
        let mut kinds = bag_kinds(r, s.bag());
        match kinds.last_mut() {
            Some(last) => {
                last.push(')');
                let label = format!("bag: {} evidence tokens (", s.bag().len());
                write_list(&mut out, &label, &kinds);
            }
            None => {
                let _ = writeln!(out, "  bag: 0 evidence tokens");
            }
        }
    } else {
        let _ = writeln!(out, "  bag: {} evidence tokens", s.bag().len());
    }
    for line in position_notes(r, s) {
        write_wrapped(&mut out, line.trim_start());
    }
    out
}

/// The bag's tokens by kind, most first: `green ×5`, `blue ×4`,
/// `blue/yellow*`.
fn bag_kinds(r: &Rules, bag: &[crate::game::model::TokenId]) -> Vec<String> {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for t in bag {
        let tok = r.token(*t);
        let name = kind_name(tok.colours, tok.momentum_symbol);
        match kinds.iter_mut().find(|(k, _)| *k == name) {
            Some((_, n)) => *n += 1,
            None => kinds.push((name, 1)),
        }
    }
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    kinds
        .into_iter()
        .map(|(k, n)| if n == 1 { k } else { format!("{k} ×{n}") })
        .collect()
}
