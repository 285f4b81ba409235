//! The evidence board as the terminal draws it (R1.6): every thread the
//! connection walk follows (R8.3) is on the screen, drawn between its two
//! spaces where they are hex neighbours and listed in words where they are
//! not, and no mark stands for a thread that is not there.

use watergate::data::{self, DataSet};
use watergate::formats::render::{self, Style};
use watergate::game::model::SpaceId;
use watergate::game::rules::{Rules, SpaceKind};
use watergate::game::state::State;

/// A word of a diagram row: its first column and its text.
struct Word {
    col: usize,
    text: String,
}

/// A diagram row's words: the runs of characters that are neither blanks
/// nor a thread's `─` (a blank between two letters is part of a name).
fn words(line: &str) -> Vec<Word> {
    let chars: Vec<char> = line.chars().collect();
    let letter = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(|c| c.is_alphabetic())
    };
    let mut out: Vec<Word> = Vec::new();
    let mut current: Option<Word> = None;
    for (col, &c) in chars.iter().enumerate() {
        let in_name = c == ' ' && letter(col.checked_sub(1)) && letter(Some(col + 1));
        if (c == ' ' && !in_name) || c == '─' {
            out.extend(current.take());
        } else {
            current
                .get_or_insert(Word {
                    col,
                    text: String::new(),
                })
                .text
                .push(c);
        }
    }
    out.extend(current);
    out
}

/// Whether `word` is how the diagram labels `space` (no colours: an
/// evidence space's id and slip letter then its mark, an informant by its
/// name or the start of it).
fn labels(r: &Rules, space: SpaceId, word: &str) -> bool {
    let sp = &r.board.spaces[space.index()];
    match sp.kind {
        SpaceKind::Nixon => word == "NIXON",
        SpaceKind::Informant(p) => {
            let name = &r.pictures[p.index()].name;
            let shown = word.trim_end_matches(['↑', '↓']);
            shown == name || (shown.len() >= 4 && name.starts_with(shown))
        }
        SpaceKind::Evidence(_) => {
            let body = word.trim_end_matches(['·', '●', '■']);
            body.len() == sp.id.len() + 1 && body.starts_with(&sp.id)
        }
    }
}

/// The diagram's lines (up to the legend), where each space is drawn
/// (line, first column) and the text of the whole board.
fn drawn(r: &Rules) -> (Vec<Vec<char>>, Vec<(usize, usize)>, String) {
    let st = Style::plain(None);
    let text = render::board(r, &State::new(r, 1), &st);
    let lines: Vec<Vec<char>> = text
        .lines()
        .take_while(|l| !l.starts_with("  ("))
        .map(|l| l.chars().collect())
        .collect();
    let mut at = vec![None; r.board.spaces.len()];
    // Rows of spaces on every other line, threads on the lines between.
    for (y, line) in lines.iter().enumerate().step_by(2) {
        for w in words(&line.iter().collect::<String>()) {
            let found: Vec<usize> = (0..at.len())
                .filter(|i| labels(r, SpaceId(*i as u8), &w.text))
                .collect();
            assert_eq!(found.len(), 1, "`{}` labels {found:?}:\n{text}", w.text);
            assert!(at[found[0]].is_none(), "{} drawn twice", w.text);
            at[found[0]] = Some((y, w.col));
        }
    }
    let at = at
        .into_iter()
        .enumerate()
        .map(|(i, a)| a.unwrap_or_else(|| panic!("space {i} not drawn:\n{text}")))
        .collect();
    (lines, at, text)
}

fn joined(r: &Rules, a: usize, b: usize) -> bool {
    r.board.neighbours[a].contains(&SpaceId(b as u8))
}

/// The marks of threads in the diagram: runs of `─`, and each `\` and `/`.
fn marks(lines: &[Vec<char>]) -> usize {
    lines
        .iter()
        .map(|l| {
            let runs = l.windows(2).filter(|w| w[0] != '─' && w[1] == '─').count();
            runs + l.iter().filter(|c| **c == '\\' || **c == '/').count()
        })
        .sum()
}

#[test]
fn every_thread_of_the_shipped_board_is_drawn_between_its_spaces_and_nothing_else() {
    let r = data::shipped();
    let (lines, at, text) = drawn(&r);
    let spaces = &r.board.spaces;
    let mut pairs = 0;
    for a in 0..spaces.len() {
        for b in 0..spaces.len() {
            let (qa, ra) = spaces[a].at;
            let (qb, rb) = spaces[b].at;
            let ((ya, xa), (yb, xb)) = (at[a], at[b]);
            let (name_a, name_b) = (&spaces[a].id, &spaces[b].id);
            if (qb, rb) == (qa + 1, ra) {
                // Hex neighbours on one row: `─` across the gap between
                // the two labels.
                assert_eq!(ya, yb);
                let gap: String = lines[ya][xa..xb].iter().collect();
                let label_end = gap.find([' ', '─']).unwrap_or(gap.len());
                assert_eq!(
                    gap[label_end..].contains('─'),
                    joined(&r, a, b),
                    "{name_a}–{name_b}: `{gap}`\n{text}"
                );
                pairs += 1;
            } else if rb == ra + 1 && (qb == qa || qb == qa - 1) {
                // Neighbours on rows one apart: `\` down to the right or
                // `/` down to the left, on the line between them.
                assert_eq!(yb, ya + 2, "{name_a} above {name_b}");
                let (from, to, mark) = if qb == qa {
                    (xa, xb + 2, '\\')
                } else {
                    (xb, xa + 2, '/')
                };
                let between = &lines[ya + 1];
                let span: String = (from..=to)
                    .map(|c| between.get(c).copied().unwrap_or(' '))
                    .collect();
                assert_eq!(
                    span.contains(mark),
                    joined(&r, a, b),
                    "{name_a}–{name_b}: `{span}`\n{text}"
                );
                pairs += 1;
            }
        }
    }
    let threads: usize = r.board.neighbours.iter().map(Vec::len).sum::<usize>() / 2;
    // Every mark is one of the threads checked above: as many marks as
    // threads (the shipped board's threads all join hex neighbours).
    assert_eq!(marks(&lines), threads, "\n{text}");
    assert!(
        threads > 60 && pairs > threads,
        "{threads} threads, {pairs} pairs"
    );
    assert!(!text.contains("not drawn"), "{text}");
}

/// A designer's board may join spaces that are not hex neighbours: such a
/// thread cannot be drawn, so it is named under the diagram, on the full
/// screen and on the compact one.
#[test]
fn a_thread_between_spaces_that_are_not_neighbours_is_named_under_the_board() {
    let mut ds = DataSet::embedded();
    let board = String::from_utf8(ds.files["cards/board.ron"].clone()).unwrap();
    let board = board.replace(r#"("nixon", "i1"),"#, r#"("o1", "o8"),"#);
    ds.files
        .insert("cards/board.ron".into(), board.into_bytes());
    let r = data::load(&ds).expect("the board with a long thread loads");
    let (lines, at, text) = drawn(&r);
    let threads: usize = r.board.neighbours.iter().map(Vec::len).sum::<usize>() / 2;
    assert_eq!(marks(&lines), threads - 1, "\n{text}");
    assert!(text.contains("threads not drawn above: o1–o8"), "\n{text}");
    // Nixon–i1, now gone, has no mark: i1 is down to the left of Nixon.
    let id = |name: &str| r.board.spaces.iter().position(|s| s.id == name).unwrap();
    let ((yn, xn), (_, xi)) = (at[id("nixon")], at[id("i1")]);
    let between: String = lines[yn + 1][xi..=xn + 2].iter().collect();
    assert!(!between.contains('/'), "`{between}`\n{text}");
    let compact = render::position_compact(&r, &State::new(&r, 1), &Style::plain(None));
    assert!(
        compact.contains("threads not drawn above: o1–o8"),
        "{compact}"
    );
}
