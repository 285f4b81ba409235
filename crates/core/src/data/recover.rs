//! Going on after a RON error, to report every problem of a file in one run
//! (as rustc does). RON stops at its first error; where that error is a
//! misspelt name whose intended one is clear, the text is patched and
//! parsed again to find the next error: an unknown field close to an
//! expected one is renamed to it (`valeu` → `value`) and an unknown field
//! close to none is blanked out with its value; an enum variant close to an
//! expected one is renamed (`Nixxon` → `Nixon`, `Bleu` → `Blue`); a
//! duplicate field is blanked. Every later error is reported at its place in
//! the original text (the patches' shifts undone). Where no patch applies
//! (a syntax error, a value of the wrong type, a missing field), the last
//! error says the check cannot go on inside the file. The patched text is
//! never used for anything but finding the next error.

use super::{explain_ron_error, ron_options};
use crate::diag::{edit_distance, Diagnostic};
use serde::de::DeserializeOwned;

/// What the last error of a file says when the parser could not go on
/// past it: problems after it in the same file are not reported.
pub const CANNOT_GO_ON: &str = "cannot go on inside this file";

/// The most errors reported for one file.
const MAX_ERRORS: usize = 20;

/// A patch of one line: the text from column `start` was replaced and the
/// columns from `end` on (in the patched text) moved by `delta`.
struct Shift {
    line: usize,
    start: usize,
    end: usize,
    delta: isize,
}

/// Every error of `text` that patching can reach, the first being `first`
/// (the error of parsing `text` itself).
pub fn all_errors<T: DeserializeOwned>(
    display: &str,
    text: &str,
    first: ron::error::SpannedError,
) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    let mut patched = text.to_string();
    let mut shifts: Vec<Shift> = Vec::new();
    let mut err = first;
    // A rename that may have made a duplicate: the text before it, and the
    // name given.
    let mut renamed: Option<(String, usize, String)> = None;
    loop {
        let (pl, pc) =
            super::error_at(&err.code, &patched, err.span.start.line, err.span.start.col);
        if let (ron::Error::DuplicateStructField { field, .. }, Some((before, shifts_before, to))) =
            (&err.code, &renamed)
        {
            if *field == to.as_str() {
                // The rename made a duplicate: blank the misspelt field
                // instead (the error was reported as an unknown field).
                patched = before.clone();
                shifts.truncate(*shifts_before);
                let last = out.last().map(|d| (d.line, d.col)).unwrap_or((1, 1));
                let at = to_patched(&shifts, last);
                renamed = None;
                if blank_entry(&mut patched, at.0, at.1).is_none() {
                    note(&mut out);
                    break;
                }
                match ron_options().from_str::<T>(&patched) {
                    Ok(_) => break,
                    Err(e) => {
                        err = e;
                        continue;
                    }
                }
            }
        }
        renamed = None;
        let (line, col) = to_original(&shifts, pl, pc);
        // A type error stands at its value, past the blank ron reports.
        let col = col + (super::value_column(&err.code, &patched, pl, pc) - pc);
        if out.last().is_some_and(|d| (line, col) <= (d.line, d.col)) {
            // No progress: what follows is a consequence of the patch.
            note(&mut out);
            break;
        }
        let mut message = explain_ron_error(&err.code, &patched, pl, pc);
        if let ron::Error::NoSuchStructField {
            expected, found, ..
        }
        | ron::Error::NoSuchEnumVariant {
            expected, found, ..
        } = &err.code
        {
            if let Some(to) = closest(found, expected) {
                message.push_str(&format!(" (did you mean `{to}`?)"));
            }
        }
        out.push(Diagnostic::new(display, line, col, message));
        if out.len() >= MAX_ERRORS {
            note(&mut out);
            break;
        }
        let before = patched.clone();
        let shifts_before = shifts.len();
        let patch = match &err.code {
            ron::Error::NoSuchStructField {
                expected, found, ..
            } => match closest(found, expected) {
                Some(to) => rename(&mut patched, pl, pc, found, to).map(|s| {
                    renamed = Some((before, shifts_before, to.to_string()));
                    Some(s)
                }),
                None => blank_entry(&mut patched, pl, pc).map(|_| None),
            },
            ron::Error::NoSuchEnumVariant {
                expected, found, ..
            } => closest(found, expected)
                .and_then(|to| rename(&mut patched, pl, pc, found, to))
                .map(Some),
            ron::Error::DuplicateStructField { field, .. } => {
                if ident_at(&patched, pl, pc) == Some(field) {
                    blank_entry(&mut patched, pl, pc).map(|_| None)
                } else {
                    None
                }
            }
            _ => None,
        };
        let Some(shift) = patch else {
            // Nothing after the error but blanks, comments and closing
            // brackets: nothing was left unchecked.
            if !nothing_after(&patched, pl, pc) {
                note(&mut out);
            }
            break;
        };
        shifts.extend(shift);
        match ron_options().from_str::<T>(&patched) {
            Ok(_) => break,
            Err(e) => err = e,
        }
    }
    out
}

/// Whether `text` holds nothing after `line`, `col` but blanks, comments,
/// commas and closing brackets.
fn nothing_after(text: &str, line: usize, col: usize) -> bool {
    let Some(at) = offset(text, line, col) else {
        return true;
    };
    let mut rest = &text[at..];
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || ",)]}".contains(c));
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else {
            return rest.is_empty();
        }
    }
}

fn note(out: &mut [Diagnostic]) {
    if let Some(last) = out.last_mut() {
        last.message = format!("{}; {CANNOT_GO_ON}", last.message);
    }
}

/// The expected name closest to `found`, if one is close enough to be
/// what was meant (at most 2 edits, or a third of its length).
fn closest<'a>(found: &str, expected: &[&'a str]) -> Option<&'a str> {
    let limit = (found.chars().count() / 3).max(2);
    expected
        .iter()
        .map(|e| (edit_distance(&found.to_lowercase(), &e.to_lowercase()), *e))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, e)| e)
}

/// The byte offset of 1-based `line`, `col` (columns count chars).
fn offset(text: &str, line: usize, col: usize) -> Option<usize> {
    let mut start = 0;
    for _ in 1..line {
        start += text[start..].find('\n')? + 1;
    }
    let rest = &text[start..];
    let end = rest.find('\n').unwrap_or(rest.len());
    let within = rest[..end]
        .char_indices()
        .nth(col.checked_sub(1)?)
        .map(|(i, _)| i)
        .or_else(|| (rest[..end].chars().count() == col - 1).then_some(end))?;
    Some(start + within)
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifier starting at `line`, `col`.
fn ident_at(text: &str, line: usize, col: usize) -> Option<&str> {
    let at = offset(text, line, col)?;
    let rest = &text[at..];
    let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// Renames identifier `found` at `line`, `col` to `to`; `None` when the
/// text there is not `found`.
fn rename(text: &mut String, line: usize, col: usize, found: &str, to: &str) -> Option<Shift> {
    if ident_at(text, line, col)? != found {
        return None;
    }
    let at = offset(text, line, col)?;
    text.replace_range(at..at + found.len(), to);
    let (old, new) = (found.chars().count(), to.chars().count());
    Some(Shift {
        line,
        start: col,
        end: col + new,
        delta: new as isize - old as isize,
    })
}

/// Blanks out the struct entry (`name: value,`) whose name starts at
/// `line`, `col`, keeping every line break so nothing else moves.
fn blank_entry(text: &mut String, line: usize, col: usize) -> Option<()> {
    let start = offset(text, line, col)?;
    let end = entry_end(text, start)?;
    let blanked: String = text[start..end]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    text.replace_range(start..end, &blanked);
    Some(())
}

/// The end of the entry starting at byte `start`: past its name, the colon,
/// its value (brackets balanced, strings and comments skipped) and the comma
/// after it, if any.
fn entry_end(text: &str, start: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = start;
    while i < b.len() && is_ident(b[i] as char) {
        i += 1;
    }
    let mut depth = 0usize;
    let mut seen_colon = false;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b':' if depth == 0 => seen_colon = true,
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                if depth == 0 {
                    return seen_colon.then_some(i);
                }
                depth -= 1;
            }
            b',' if depth == 0 => return seen_colon.then_some(i + 1),
            _ => {}
        }
        i += 1;
    }
    seen_colon.then_some(i.min(b.len()))
}

/// `line`, `col` of the patched text in the original one.
fn to_original(shifts: &[Shift], line: usize, col: usize) -> (usize, usize) {
    let mut col = col as isize;
    for s in shifts.iter().rev().filter(|s| s.line == line) {
        if col >= s.end as isize {
            col -= s.delta;
        } else if col > s.start as isize {
            col = s.start as isize;
        }
    }
    (line, col.max(1) as usize)
}

/// `line`, `col` of the original text in the patched one.
fn to_patched(shifts: &[Shift], (line, col): (usize, usize)) -> (usize, usize) {
    let mut col = col as isize;
    for s in shifts.iter().filter(|s| s.line == line) {
        if col >= s.end as isize - s.delta {
            col += s.delta;
        }
    }
    (line, col.max(1) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Card {
        side: Side,
        value: u8,
        colours: Vec<Colour>,
        #[serde(default)]
        note: String,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    enum Side {
        Editor,
        Nixon,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    enum Colour {
        Blue,
        Yellow,
        Green,
    }

    fn errors(text: &str) -> Vec<String> {
        match super::super::parse_ron_all::<Card>("c.ron", text) {
            Ok(c) => panic!("parsed: {c:?}"),
            Err(d) => d.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn every_misspelt_name_is_reported_at_its_place() {
        let e = errors("Card(\n    side: Nixxon,\n    valeu: 2,\n    colours: [Bleu, Yelow],\n)");
        assert_eq!(e.len(), 4, "{e:#?}");
        assert!(e[0].starts_with("c.ron:2:11: "), "{e:#?}");
        assert!(e[0].contains("Nixxon"), "{e:#?}");
        assert!(e[1].starts_with("c.ron:3:5: "), "{e:#?}");
        assert!(e[1].contains("valeu"), "{e:#?}");
        assert!(e[2].starts_with("c.ron:4:15: "), "{e:#?}");
        assert!(e[3].starts_with("c.ron:4:21: "), "{e:#?}");
        assert!(e.iter().all(|m| !m.contains(CANNOT_GO_ON)), "{e:#?}");
    }

    #[test]
    fn columns_after_a_longer_name_on_the_same_line_are_the_originals() {
        // `Edtor` → `Editor` is one longer: `Bleu` still stands at col 39.
        let e = errors("Card(side: Edtor, value: 2, colours: [Bleu])");
        assert_eq!(e.len(), 2, "{e:#?}");
        assert!(e[0].starts_with("c.ron:1:12: "), "{e:#?}");
        assert!(e[1].starts_with("c.ron:1:39: "), "{e:#?}");
    }

    #[test]
    fn a_field_close_to_none_is_left_out_and_the_next_error_found() {
        let e = errors("Card(\n    side: Nixon,\n    flavour: (a: [1, \"x,)\"]),\n    value: 2,\n    colours: [Bleu],\n)");
        assert_eq!(e.len(), 2, "{e:#?}");
        assert!(e[0].starts_with("c.ron:3:5: "), "{e:#?}");
        assert!(e[1].starts_with("c.ron:5:15: "), "{e:#?}");
    }

    #[test]
    fn a_rename_that_would_duplicate_a_field_blanks_it_instead() {
        let e = errors(
            "Card(\n    side: Nixon,\n    value: 2,\n    valeu: 3,\n    colours: [Bleu],\n)",
        );
        assert_eq!(e.len(), 2, "{e:#?}");
        assert!(e[0].starts_with("c.ron:4:5: "), "{e:#?}");
        assert!(e[1].starts_with("c.ron:5:15: "), "{e:#?}");
    }

    #[test]
    fn an_error_at_the_end_leaves_nothing_unchecked() {
        let e = errors("Card(\n    side: Nixxon,\n    value: 2,\n    colours: [Blue],\n");
        assert_eq!(e.len(), 2, "{e:#?}");
        assert!(e[1].starts_with("c.ron:4:21: unexpected end"), "{e:#?}");
        assert!(!e[1].contains(CANNOT_GO_ON), "{e:#?}");
        let e = errors("// nothing\n");
        assert_eq!(e.len(), 1, "{e:#?}");
        assert!(!e[0].contains(CANNOT_GO_ON), "{e:#?}");
    }

    #[test]
    fn where_no_patch_applies_the_last_error_says_so() {
        let e = errors("Card(\n    side: Nixxon,\n    value: 2x,\n    colours: [Bleu],\n)");
        assert_eq!(e.len(), 2, "{e:#?}");
        assert!(e[0].starts_with("c.ron:2:11: "), "{e:#?}");
        assert!(e[1].starts_with("c.ron:3:13: "), "{e:#?}");
        assert!(e[1].ends_with(CANNOT_GO_ON), "{e:#?}");
        assert!(!e[0].contains(CANNOT_GO_ON), "{e:#?}");
    }
}
