//! Loading the game from data files: stage one parses RON into the raw
//! definitions of [`raw`]; stage two ([`validate`]) checks them and builds
//! [`crate::game::rules::Rules`], reporting every problem with `path:line:col`.

pub mod origin;
pub mod raw;
pub mod recover;
pub mod source;
pub mod srcmap;
pub mod user_file;
pub mod validate;
pub mod variant;

pub use origin::GameSource;
pub use source::DataSet;
pub use user_file::{read_user_file, ReadError, MAX_FILE_BYTES};

use crate::diag::{Diagnostic, Diagnostics};
use crate::game::rules::Rules;
use serde::de::DeserializeOwned;
use srcmap::SourceMap;
use std::borrow::Cow;

/// A parsed file: its definition, where it came from and where its values stand.
pub struct Parsed<T> {
    /// What the file says.
    pub def: T,
    /// Path relative to the data root.
    pub rel: String,
    /// Path as shown to the user.
    pub display: String,
    /// Where each value stands in the file's text.
    pub map: SourceMap,
}

impl<T> Parsed<T> {
    /// A diagnostic at the value found at `path` in this file.
    pub fn at(&self, path: &str, message: impl Into<String>) -> Diagnostic {
        let (line, col) = self.map.locate(path);
        Diagnostic::new(&self.display, line, col, message)
    }
}

/// RON options shared by every loader: `Some(…)` may be left out.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Parses one RON text into `T`, or says exactly where and why it cannot.
pub fn parse_ron<T: DeserializeOwned>(display: &str, text: &str) -> Result<T, Diagnostic> {
    ron_options().from_str::<T>(text).map_err(|e| {
        let (line, col) = error_at(&e.code, text, e.span.start.line, e.span.start.col);
        Diagnostic::new(
            display,
            line,
            value_column(&e.code, text, line, col),
            explain_ron_error(&e.code, text, line, col),
        )
    })
}

/// Where a RON error is shown: where ron reports it, but for trailing
/// characters at the first of them, where ron reports the end of the
/// value before them (the line before a stray `)`).
pub(crate) fn error_at(code: &ron::Error, text: &str, line: usize, col: usize) -> (usize, usize) {
    if matches!(code, ron::Error::UnclosedBlockComment) {
        // ron stands where it gave up, far past the `/*` left open.
        return unclosed_comment(text).map_or((line, col), |at| crate::diag::line_col(text, at));
    }
    if !matches!(code, ron::Error::TrailingCharacters) {
        return (line, col);
    }
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + text
            .split_inclusive('\n')
            .nth(line.saturating_sub(1))
            .map_or(0, |l| {
                l.char_indices()
                    .nth(col.saturating_sub(1))
                    .map_or(l.len(), |(i, _)| i)
            });
    // Blanks and comments are not trailing characters, as ron reads them.
    let mut rest = &text[start.min(text.len())..];
    loop {
        let trimmed = rest.trim_start();
        if let Some(r) = trimmed.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = trimmed.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else {
            rest = trimmed;
            break;
        }
    }
    crate::diag::line_col(text, text.len() - rest.len())
}

/// Where the first block comment that never closes opens, read as ron
/// reads comments: outside strings, and nested (`/* a /* b */ c */`).
fn unclosed_comment(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |n| i + n);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                let mut level = 1;
                i += 2;
                while level > 0 {
                    if i + 1 >= b.len() {
                        return Some(start);
                    }
                    if b[i] == b'/' && b[i + 1] == b'*' {
                        level += 1;
                        i += 2;
                    } else if b[i] == b'*' && b[i + 1] == b'/' {
                        level -= 1;
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Whether a RON error is about a value's type ("Expected integer"), which
/// stands at the value itself, rather than about punctuation.
fn is_type_error(msg: &str) -> Option<&str> {
    let what = msg.trim_end_matches('.').strip_prefix("Expected ")?;
    let punctuation = ["comma", "colon", "closing", "opening"];
    (!punctuation.iter().any(|p| what.starts_with(p))).then_some(what)
}

/// Where a decimal number starts when `col` is its `.`: `value: 3.5` where a
/// whole number is wanted, which ron reads as `3` and then stops at the `.`
/// asking for a comma.
fn decimal_before(text: &str, line: usize, col: usize) -> Option<usize> {
    let chars: Vec<char> = text.lines().nth(line.checked_sub(1)?)?.chars().collect();
    let at = |i: usize| i.checked_sub(1).and_then(|i| chars.get(i)).copied();
    let digit = |i: usize| at(i).is_some_and(|c| c.is_ascii_digit());
    if at(col) != Some('.') || !digit(col + 1) || !digit(col.saturating_sub(1)) {
        return None;
    }
    (1..col)
        .rev()
        .take_while(|&i| at(i).is_some_and(|c| c.is_ascii_digit() || c == '-'))
        .last()
}

/// The column a RON error is shown at: for a type error, the value's first
/// character, where ron reports the blank before it (`value: "three"` was
/// shown at the space after the colon).
pub(crate) fn value_column(code: &ron::Error, text: &str, line: usize, col: usize) -> usize {
    let msg = code.to_string();
    if msg.trim_end_matches('.') == "Expected comma" {
        return decimal_before(text, line, col).unwrap_or(col);
    }
    if matches!(code, ron::Error::IntegerOutOfBounds) {
        // ron stands past the sign of `-1`: show the whole number.
        let before = text
            .lines()
            .nth(line.saturating_sub(1))
            .and_then(|l| l.chars().nth(col.checked_sub(2)?));
        return if before == Some('-') { col - 1 } else { col };
    }
    // A type error, or a list's `[` missing (`colours: Blue`): at the value.
    if is_type_error(&msg).is_none() && !msg.starts_with("Expected opening `[`") {
        return col;
    }
    let skip = text
        .lines()
        .nth(line.saturating_sub(1))
        .map(|l| {
            l.chars()
                .skip(col.saturating_sub(1))
                .take_while(|c| c.is_whitespace())
                .count()
        })
        .unwrap_or(0);
    col + skip
}

/// Parses one RON text into `T`, or reports every error that can be
/// reached in it ([`recover`]: misspelt names are patched to find the next
/// error), each where it stands; where the parser cannot go on, the last
/// error says so.
pub fn parse_ron_all<T: DeserializeOwned>(display: &str, text: &str) -> Result<T, Diagnostics> {
    ron_options()
        .from_str::<T>(text)
        .map_err(|e| Diagnostics(recover::all_errors::<T>(display, text, e)))
}

/// The RON error in words a designer can act on: which field, what was
/// expected, and what was found there.
pub fn explain_ron_error(code: &ron::Error, text: &str, line: usize, col: usize) -> String {
    let msg = code.to_string();
    let msg = msg.trim_end_matches('.');
    // Type errors ("Expected integer") stand at the value itself: name the
    // field and quote what is there.
    if let Some(what) = is_type_error(msg) {
        // ron may report the blank before the value: step over it.
        let col = value_column(code, text, line, col);
        let field = field_at(text, line, col);
        let found = found_at(text, line, col);
        // ron says what it found of a struct's name itself ("Expected
        // struct `GameLog` but found `garbage`"): not twice.
        let found = if found.is_empty() || what.contains(" but found ") {
            String::new()
        } else {
            format!(", found `{found}`")
        };
        // A `#` where a value goes is mostly a comment written in another
        // language's way: what ron expected there is beside the point.
        let here = found_at(text, line, col);
        if here.starts_with('#') {
            return format!("unexpected `{here}`: comments in RON start with `//`, not `#`");
        }
        return match field {
            Some(f) => format!("`{f}`: expected {what}{found}"),
            None => format!("expected {what}{found}"),
        };
    }
    if matches!(code, ron::Error::ExceededRecursionLimit) {
        // ron's own text advises its API (`recursion_limit`, serde_stacker),
        // which a designer cannot reach; the file is what to change.
        return "nested too deeply for the reader (about 30 levels of `All([…])` inside one \
                another); write it flatter: `All([a, b, c])` rather than `All([a, All([b, c])])`"
            .to_string();
    }
    if matches!(code, ron::Error::IntegerOutOfBounds) {
        // Which whole numbers the field takes is the type's, which ron does
        // not say; a sign or a size is what is wrong.
        let col = value_column(code, text, line, col);
        let found = found_at(text, line, col);
        let field = field_at(text, line, col);
        let what = if found.starts_with('-')
            && field
                .as_deref()
                .is_some_and(|f| f == "seed" || f.ends_with(".seed"))
        {
            // A seed is no count, though it takes no sign either.
            format!(
                "`{found}` is out of range: a seed is a whole number from 0 to {}",
                u64::MAX
            )
        } else if found.starts_with('-') {
            format!("`{found}` is out of range: below the least this field takes (a count takes 0 or more)")
        } else {
            format!("`{found}` is out of range: larger than this field takes")
        };
        return match field {
            Some(f) => format!("`{f}`: {what}"),
            None => what,
        };
    }
    if msg == "Expected comma" {
        if let Some(start) = decimal_before(text, line, col) {
            let number = found_at(text, line, start);
            return format!("expected a whole number, found `{number}`");
        }
        let here = text
            .lines()
            .nth(line.saturating_sub(1))
            .and_then(|l| l.chars().nth(col.saturating_sub(1)));
        if let Some(c @ (']' | ')' | '}')) = here {
            // A closing bracket where the list or struct goes on: one too
            // many, most often (`[Blue]],`).
            return format!(
                "unexpected `{c}`: a closing bracket with nothing open to close here (one too many?), or a comma missing before it"
            );
        }
        return "expected a comma before this (after the previous value)".to_string();
    }
    if matches!(code, ron::Error::TrailingCharacters) {
        // ron's "Non-whitespace trailing characters": the file's one value
        // ended before this (`error_at` stands at it), mostly at a `)` too
        // many.
        let found: String = text
            .lines()
            .nth(line.saturating_sub(1))
            .map(|l| l.chars().skip(col.saturating_sub(1)).take(20).collect())
            .unwrap_or_default();
        return format!(
            "unexpected `{}` after the end of the file's value (a closing bracket too many, \
             or text after the last one)",
            found.trim_end()
        );
    }
    if matches!(code, ron::Error::ExpectedArray) {
        // `colours: Blue`: a list's brackets left out.
        let col = value_column(code, text, line, col);
        let found = found_at(text, line, col);
        let what = format!("expected a list in brackets, as `[{found}]`, found `{found}`");
        return match field_at(text, line, col) {
            Some(f) => format!("`{f}`: {what}"),
            None => what,
        };
    }
    if matches!(code, ron::Error::UnclosedBlockComment) {
        return "this `/*` comment is never closed: end it with `*/` (or write `//` for a comment to the end of the line)".to_string();
    }
    if msg == "Expected colon" {
        return "expected a colon here (`name: value`)".to_string();
    }
    // ron's "Unexpected missing field named `value` in `PlayerCard`": the
    // field is missing, nothing about it is unexpected.
    let msg = msg.replace("Unexpected missing field named ", "missing field ");
    let mut m = in_the_files_words(&msg);
    if let Some(first) = m.get(0..1) {
        m.replace_range(0..1, &first.to_lowercase());
    }
    if matches!(code, ron::Error::MissingStructField { .. }) {
        if let Some(at) = closed_early(text, line, col) {
            let place = if at == (line, col) {
                "here".to_string()
            } else {
                format!("at {}:{}", at.0, at.1)
            };
            m.push_str(&format!(
                "; the `)` {place} ends it while fields follow: is it one too many?"
            ));
        }
    }
    m
}

/// Where a struct was closed before its fields ended (`value: 3, ),` in a
/// card): the `)` at or before `line:col`, when the next thing after it is
/// another field (`name:`), which no closed struct is followed by.
fn closed_early(text: &str, line: usize, col: usize) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    // Back from the error's place, over blanks, to a `)`.
    let (mut l, mut c) = (line.checked_sub(1)?, col);
    let paren = loop {
        let chars: Vec<char> = lines.get(l)?.chars().collect();
        while c > 0 && chars.get(c - 1).is_none_or(|ch| ch.is_whitespace()) {
            c -= 1;
        }
        if c > 0 {
            break (chars[c - 1] == ')').then_some((l + 1, c))?;
        }
        l = l.checked_sub(1)?;
        c = lines.get(l)?.chars().count();
    };
    // After it: a comma, blanks and comments, then `name:`.
    let offset: usize = lines[..paren.0 - 1]
        .iter()
        .map(|x| x.len() + 1)
        .sum::<usize>()
        + lines[paren.0 - 1]
            .char_indices()
            .nth(paren.1)
            .map_or(lines[paren.0 - 1].len(), |(i, _)| i);
    let mut rest = text.get(offset..)?.trim_start().trim_start_matches(',');
    loop {
        rest = rest.trim_start();
        match rest.strip_prefix("//") {
            Some(r) => rest = r.find('\n').map_or("", |i| &r[i..]),
            None => break,
        }
    }
    let name_len = rest
        .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
        .unwrap_or(0);
    (name_len > 0 && rest[name_len..].trim_start().starts_with(':')).then_some(paren)
}

/// ron names the reader's own types (`in `CardPatch``): said as the file
/// says them, a variant's `cards: [...]` entry and so on.
fn in_the_files_words(msg: &str) -> String {
    const NAMES: [(&str, &str); 2] = [
        (
            "`CardPatch`",
            "a variant's card entry (`cards: [(id: …, …)]`)",
        ),
        ("`TokenPatch`", "a variant's `token_counts` entry"),
    ];
    NAMES
        .iter()
        .fold(msg.to_string(), |m, (name, words)| m.replace(name, words))
}

/// The field whose value starts at `line:col`, if one does (`value`,
/// `puzzle.depth`): what a message about that value names.
fn field_at(text: &str, line: usize, col: usize) -> Option<String> {
    let map = srcmap::SourceMap::build(text);
    map.path_at(line, col)
        .filter(|p| map.get(p) == Some((line, col)))
}

/// The struct name a RON text opens with (`Variant` for `Variant(…`),
/// after blanks, comments and `#![enable(…)]` attributes; `Some("")` for an
/// unnamed struct `(…`, `None` when the text opens with anything else.
/// What kind of file it is, without parsing it: the studio lists as
/// variants only the files that open as one, and `check --deep` plays as
/// scenarios only those that open as one.
pub fn ron_head(text: &str) -> Option<&str> {
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else if let Some(r) = rest.strip_prefix("#!") {
            rest = r.find(']').map_or("", |i| &r[i + 1..]);
        } else {
            break;
        }
    }
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(name_len);
    after.trim_start().starts_with('(').then_some(name)
}

/// The token at `line:col` (up to a delimiter), for error messages.
fn found_at(text: &str, line: usize, col: usize) -> String {
    let Some(l) = text.lines().nth(line.saturating_sub(1)) else {
        return String::new();
    };
    let rest: String = l.chars().skip(col.saturating_sub(1)).collect();
    let mut out = String::new();
    let mut in_string = false;
    for c in rest.chars() {
        if c == '"' {
            in_string = !in_string;
        }
        if !in_string && (c == ',' || c == ')' || c == ']' || c == '}') {
            break;
        }
        out.push(c);
        if out.chars().count() >= 40 {
            out.push('…');
            break;
        }
    }
    out.trim().to_string()
}

/// Decodes a data file as UTF-8 text (`without_bom`, `lines_by_lf`).
pub fn text_of<'a>(ds: &'a DataSet, rel: &str) -> Result<Cow<'a, str>, Diagnostic> {
    if let Some(why) = ds.unread.get(rel) {
        return Err(Diagnostic::unread(ds.display_path(rel), why.clone()));
    }
    let bytes = ds.get(rel).ok_or_else(|| {
        // A folder where the file should be is read as a folder of files,
        // so the file is "missing": say what is there instead.
        let folder = ds.root.as_ref().is_some_and(|root| root.join(rel).is_dir());
        let why = if folder {
            "a folder, not a file: expected this file here"
        } else {
            "missing file"
        };
        Diagnostic::unread(ds.display_path(rel), why)
    })?;
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, col) = utf8_error_position(bytes, e.valid_up_to());
        Diagnostic::new(
            ds.display_path(rel),
            line,
            col,
            "not valid UTF-8 text: expected a RON or rhai text file",
        )
    })?;
    Ok(lines_by_lf(without_bom(text)))
}

/// `text` with each line ending that is a lone carriage return (old Mac
/// files) made a line feed, as every editor shows it. RON and rhai end a
/// line only at a line feed: such a file's first `//` comment swallowed it
/// whole, and rhai's positions counted lines differently from its
/// comments'. A CR LF ending is left as it is; both read it as one end.
pub fn lines_by_lf(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return Cow::Borrowed(text);
    }
    // One ASCII byte for another: still UTF-8, every offset kept.
    let relined: Vec<u8> = (0..bytes.len())
        .map(|i| if lone(i) { b'\n' } else { bytes[i] })
        .collect();
    Cow::Owned(String::from_utf8(relined).unwrap_or_else(|_| text.to_string()))
}

/// `text` without the byte-order mark some editors write first (U+FEFF,
/// invisible): RON and rhai would stop at it ("expected `(`", "Unexpected
/// '\u{feff}'") pointing at a character no one can see.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// [`without_bom`] for an owned text.
pub(crate) fn strip_bom(text: String) -> String {
    match without_bom(&text) {
        rest if rest.len() < text.len() => rest.to_string(),
        _ => text,
    }
}

/// Reads a file a user names (a scenario, a variant, a log) as UTF-8 text,
/// through [`read_user_file`] (or, for a shipped scenario or variant named
/// by its relative path, the copy in the binary: [`source::shipped_file`]);
/// a missing or refused file or bad bytes are a diagnostic at the right
/// place. `what` names the expected kind of file for the message.
pub fn read_text_file(
    path: &std::path::Path,
    what: &str,
) -> Result<String, crate::diag::Diagnostics> {
    use crate::diag::Diagnostics;
    let display = path.display().to_string();
    let bytes = read_data_file(path)
        .map_err(|e| Diagnostics(vec![Diagnostic::unread(&display, e.reason())]))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, col) = utf8_error_position(e.as_bytes(), e.utf8_error().valid_up_to());
        Diagnostics(vec![Diagnostic::new(
            &display,
            line,
            col,
            format!("not valid UTF-8 text: expected {what}"),
        )])
    })?;
    let text = strip_bom(text);
    // Copied only where a line ending was changed.
    let relined = match lines_by_lf(&text) {
        Cow::Owned(t) => Some(t),
        Cow::Borrowed(_) => None,
    };
    Ok(relined.unwrap_or(text))
}

/// The bytes of a file a scenario or variant names: the file on disk
/// ([`read_user_file`]), or, when there is none at that path and the path is
/// a relative one naming a shipped scenario or variant (`scenarios/…`, as
/// the studio and `check --deep` name them), the copy embedded in the
/// binary, so a shipped variant finds the files it names from any folder.
pub fn read_data_file(path: &std::path::Path) -> Result<Vec<u8>, ReadError> {
    match read_user_file(path) {
        Err(ReadError::Io(p, e)) if e.kind() == std::io::ErrorKind::NotFound => {
            match source::shipped_file(path) {
                Some(bytes) => Ok(bytes.to_vec()),
                None => Err(ReadError::Io(p, e)),
            }
        }
        other => other,
    }
}

/// Whether [`read_data_file`] finds a file at `path`.
pub fn data_file_exists(path: &std::path::Path) -> bool {
    path.is_file() || (!path.exists() && source::shipped_file(path).is_some())
}

/// Line and column of the first byte that is not UTF-8.
pub fn utf8_error_position(bytes: &[u8], valid_up_to: usize) -> (usize, usize) {
    let valid = std::str::from_utf8(&bytes[..valid_up_to]).unwrap_or("");
    crate::diag::line_col(valid, valid.len())
}

/// Parses a data file into a definition with its source map.
pub fn parse_file<T: DeserializeOwned>(ds: &DataSet, rel: &str) -> Result<Parsed<T>, Diagnostics> {
    let display = ds.display_path(rel);
    let text = text_of(ds, rel).map_err(|d| Diagnostics(vec![d]))?;
    let def = parse_ron_all::<T>(&display, &text)?;
    Ok(Parsed {
        def,
        rel: rel.to_string(),
        display,
        map: SourceMap::build(&text),
    })
}

/// Loads and checks a whole data set.
pub fn load(ds: &DataSet) -> Result<Rules, Diagnostics> {
    validate::validate(ds)
}

/// Advice on a game that loads: a board outside the D5 shape
/// (`game::board_shape`) and card scripts whose choices show what the rules
/// hide (`Rules::hidden_information_warnings`). `watergate check` prints
/// them as warnings and the studio's workbench shows them; neither stops
/// the game from loading.
///
/// A board warning points at the space it is about in the board file
/// (`board_warnings` gives the field), or at the list of spaces; the
/// scripts' warnings are `script_warnings`.
pub fn warnings(rules: &Rules, ds: &DataSet) -> Vec<Diagnostic> {
    let board = ds.display_path(validate::BOARD_FILE);
    let map = text_of(ds, validate::BOARD_FILE)
        .map(|text| SourceMap::build(&text))
        .unwrap_or_default();
    (board_warnings(rules).into_iter())
        .map(|(message, field)| {
            let (line, col) = map.get(&field).unwrap_or((0, 0));
            Diagnostic::new(board.as_str(), line, col, message)
        })
        .chain(script_warnings(rules))
        .chain(card_side_warnings(ds))
        .collect()
}

/// Player cards whose `side` contradicts the folder they lie in
/// (`cards/editor/`, `cards/nixon/`) or their id's prefix (`editor.…`),
/// each at its `side`. Such a card loads and plays in the deck its `side`
/// names, so a slip (a card copied from the other side's folder and not
/// changed all through) would go unseen; it may also be meant, so it is
/// advice, not an error.
pub fn card_side_warnings(ds: &DataSet) -> Vec<Diagnostic> {
    use crate::game::model::Side;
    // Only the sides' full names: other folders and prefixes say nothing.
    let side_named = |s: &str| match s {
        "editor" => Some(Side::Editor),
        "nixon" => Some(Side::Nixon),
        _ => None,
    };
    let mut out = Vec::new();
    for rel in ds.files.keys() {
        let Some(rest) = rel.strip_prefix("cards/") else {
            continue;
        };
        let Some((folder, _)) = rest.split_once('/') else {
            continue;
        };
        if !rel.ends_with(".ron") || rel.starts_with(validate::MOMENTUM_DIR) {
            continue;
        }
        // A card that does not parse is reported by the load itself.
        let Ok(card) = parse_file::<raw::PlayerCardDef>(ds, rel) else {
            continue;
        };
        let side = card.def.side;
        let prefix = card.def.id.split_once('.').map(|(p, _)| p);
        let mut against = Vec::new();
        if side_named(folder).is_some_and(|f| f != side) {
            against.push(format!("it lies in cards/{folder}/"));
        }
        if let Some(p) = prefix.filter(|p| side_named(p).is_some_and(|s| s != side)) {
            against.push(format!("its id begins with `{p}.`"));
        }
        if !against.is_empty() {
            out.push(card.at(
                "side",
                format!(
                    "card `{}` has `side: {side:?}`, but {}: it is dealt to {side}'s deck; is `side` right?",
                    crate::game::wording::clipped(&card.def.id),
                    against.join(" and ")
                ),
            ));
        }
    }
    out
}

/// The card scripts' warnings, each at its call: choices that show what
/// the rules hide (`Rules::hidden_information_warnings`) and text that goes
/// nowhere (`Rules::silent_output_warnings`).
pub fn script_warnings(rules: &Rules) -> impl Iterator<Item = Diagnostic> {
    (rules.hidden_information_warnings().into_iter())
        .chain(rules.silent_output_warnings())
        .chain(rules.empty_script_warnings())
}

/// The board's D5 warnings, each with the field of the board file it is
/// about: `spaces[i].id` of the space it names first, or `spaces`. A
/// variant that writes its board inline locates them under its `board`.
pub fn board_warnings(rules: &Rules) -> Vec<(String, String)> {
    let shape = crate::game::board_shape::measure(&rules.board);
    (shape.located_warnings().into_iter())
        .map(|w| {
            let index = (w.space.as_ref())
                .and_then(|id| rules.board.spaces.iter().position(|s| &s.id == id));
            let field = match index {
                Some(i) => format!("spaces[{i}].id"),
                None => "spaces".to_string(),
            };
            (w.message, field)
        })
        .collect()
}

#[cfg(feature = "shipped-data")]
/// The data shipped in the binary, loaded. Panics only if the shipped data
/// is broken, which the test suite rules out.
pub fn shipped() -> Rules {
    match load(&DataSet::embedded()) {
        Ok(r) => r,
        Err(d) => panic!("the shipped data does not load:\n{d}"),
    }
}

#[cfg(test)]
mod tests {
    use super::ron_head;

    #[test]
    fn a_struct_closed_before_its_fields_end_is_told_apart_from_a_field_left_out() {
        use super::closed_early;
        // `value: 2, ),` then more fields: the `)` on line 2 closed it.
        let early = "Card(\n  value: 2, ),\n  colours: [Blue],\n)\n";
        assert_eq!(closed_early(early, 2, 13), Some((2, 13)));
        // A field left out: the `)` closing the card ends the file.
        assert_eq!(closed_early("Card(\n  value: 2,\n)\n", 3, 1), None);
        // A nested struct closed where it should be: what follows is
        // another entry of the list, not a field.
        let nested = "Board(spaces: [(id: \"a\"), (id: \"b\")])";
        assert_eq!(closed_early(nested, 1, 24), None);
    }

    #[test]
    fn a_comment_left_open_is_found_where_it_opens() {
        use super::unclosed_comment;
        let text = "(\n  value: 3, /* was 2\n  quote: \"q\",\n)\n";
        assert_eq!(unclosed_comment(text), Some(text.find("/*").unwrap()));
        // Closed, nested, or inside a string or a line comment: none open.
        assert_eq!(unclosed_comment("(a: 1 /* x /* y */ z */)"), None);
        assert_eq!(unclosed_comment("(a: \"/*\") // /* no"), None);
        // The outer one of two nested, when only the inner closes.
        assert_eq!(unclosed_comment("(a: 1) /* x /* y */"), Some(7));
    }

    #[test]
    fn a_files_kind_is_the_struct_it_opens_with() {
        assert_eq!(ron_head("Variant(name: \"x\")"), Some("Variant"));
        assert_eq!(
            ron_head("// a board\n/* note */\n#![enable(implicit_some)]\n  Board (\n"),
            Some("Board")
        );
        assert_eq!(ron_head("\n(seed: 1)"), Some(""));
        assert_eq!(ron_head("[1, 2]"), None);
        assert_eq!(ron_head("// only a comment"), None);
        assert_eq!(ron_head(""), None);
    }
}
