//! Where each value stands in a RON file.
//!
//! serde forgets positions once a file has parsed, but a validation error
//! ("no informant named `Wods`") must still say `path:line:col`. This scanner
//! walks the RON text once and records, for every struct field and sequence
//! element, the position where its value starts, keyed by a path such as
//! `spaces[3].slip`. It only reads structure (brackets, field names, strings,
//! comments) and never fails: on text it does not understand it records less.

use std::collections::HashMap;

/// Positions of values in one RON text, by path.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    positions: HashMap<String, (usize, usize)>,
}

impl SourceMap {
    /// Scans `text` once and records where each value starts, by path
    /// (`spaces[3].slip`; `""` for the whole file). Never fails.
    pub fn build(text: &str) -> SourceMap {
        let mut positions = HashMap::new();
        for (path, span) in spans(text) {
            // The first value at a path is the one to point at: `Some(x)`
            // before its `x`.
            positions.entry(path).or_insert((span.line, span.col));
        }
        SourceMap { positions }
    }

    /// The position of the value at `path`, or of its nearest recorded
    /// ancestor (`a.b[2]` falls back to `a.b`, then `a`), or 1:1.
    pub fn locate(&self, path: &str) -> (usize, usize) {
        let mut p = path.to_string();
        loop {
            if let Some(pos) = self.positions.get(&p) {
                return *pos;
            }
            match p.rfind(['.', '[']) {
                Some(i) => p.truncate(i),
                None => return self.positions.get("").copied().unwrap_or((1, 1)),
            }
        }
    }

    /// The position (line, column, from 1) of the value at exactly `path`.
    pub fn get(&self, path: &str) -> Option<(usize, usize)> {
        self.positions.get(path).copied()
    }

    /// The path of the value that starts last at or before `line:col`: the
    /// field a parser error most likely concerns.
    pub fn path_at(&self, line: usize, col: usize) -> Option<String> {
        self.positions
            .iter()
            .filter(|(p, pos)| !p.is_empty() && **pos <= (line, col))
            .max_by_key(|(p, pos)| (**pos, p.len()))
            .map(|(p, _)| p.clone())
    }

    /// The positions under `prefix`, keyed relative to it: a value embedded
    /// in a larger file (a game log's start position) is then located with
    /// the paths of its own format.
    pub fn subtree(&self, prefix: &str) -> SourceMap {
        let positions = self
            .positions
            .iter()
            .filter_map(|(k, v)| {
                let rest = k.strip_prefix(prefix)?;
                let rest = match rest.strip_prefix('.') {
                    Some(r) => r,
                    None if rest.is_empty() || rest.starts_with('[') => rest,
                    None => return None,
                };
                Some((rest.to_string(), *v))
            })
            .collect();
        SourceMap { positions }
    }
}

/// What a value looks like in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// `"…"` or `r#"…"#`.
    Str,
    /// A number (`3`, `-1`).
    Num,
    /// A bare word: `true`, `None`, `Nixon`.
    Word,
    /// `[…]`.
    Seq,
    /// `(…)` or `Name(…)`: a struct, a tuple, `Some(…)`, an enum variant.
    Parens,
    /// `{…}`.
    Map,
    /// A character literal, or nothing (the text ended).
    Other,
}

/// Where one value stands: its byte range from its first character to its
/// last, the line and column (from 1) it starts at, and whether it holds
/// named fields (a struct or a map).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueSpan {
    /// Byte offset of the value's first character.
    pub start: usize,
    /// Byte offset just after the value's last character.
    pub end: usize,
    /// The line the value starts on, from 1.
    pub line: usize,
    /// The column (in characters) the value starts at, from 1.
    pub col: usize,
    /// How the value is written.
    pub kind: ValueKind,
    /// Whether the value holds named fields (`(a: 1)`, `{"k": 1}`).
    pub has_fields: bool,
}

/// Every value of `text` with its path, in the order the values start;
/// `""` is the whole file's value. `Some(x)` is listed twice at one path:
/// first the whole `Some(…)`, then `x` (a path names the value with or
/// without its `Some`). One scanner serves the diagnostics ([`SourceMap`],
/// which needs where a value starts) and the studio's form editor (which
/// replaces a value's text and so needs where it ends). Never fails.
pub fn spans(text: &str) -> Vec<(String, ValueSpan)> {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
        line: 1,
        col: 1,
        out: Vec::new(),
        depth: 0,
    };
    s.value(String::new());
    s.out
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
    col: usize,
    out: Vec<(String, ValueSpan)>,
    depth: usize,
}

/// Nesting deeper than this is not followed (serde reports such a file).
const MAX_DEPTH: usize = 128;

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.i += 1;
            if c == b'\n' {
                self.line += 1;
                self.col = 1;
            } else if (c & 0xC0) != 0x80 {
                // count characters, not UTF-8 continuation bytes
                self.col += 1;
            }
        }
    }

    fn skip_trivia(&mut self) {
        loop {
            match self.peek() {
                Some(c) if c.is_ascii_whitespace() => self.bump(),
                Some(b'/') if self.peek_at(1) == Some(b'/') => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.bump();
                    }
                }
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    self.bump();
                    self.bump();
                    let mut nest = 1;
                    while nest > 0 && self.peek().is_some() {
                        if self.peek() == Some(b'/') && self.peek_at(1) == Some(b'*') {
                            nest += 1;
                            self.bump();
                        } else if self.peek() == Some(b'*') && self.peek_at(1) == Some(b'/') {
                            nest -= 1;
                            self.bump();
                        }
                        self.bump();
                    }
                }
                _ => return,
            }
        }
    }

    fn ident(&mut self) -> String {
        let start = self.i;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.bump();
        }
        String::from_utf8_lossy(&self.b[start..self.i]).into_owned()
    }

    /// Skips a string literal (at its `"`) and returns its raw content
    /// (escapes kept).
    fn string(&mut self) -> String {
        self.bump();
        let start = self.i;
        while let Some(c) = self.peek() {
            if c == b'\\' {
                self.bump();
                self.bump();
                continue;
            }
            if c == b'"' {
                let s = String::from_utf8_lossy(&self.b[start..self.i]).into_owned();
                self.bump();
                return s;
            }
            self.bump();
        }
        String::new()
    }

    /// Skips `r#"…"#` (at its `r`).
    fn raw_string(&mut self) {
        self.bump();
        let mut hashes = 0;
        while self.peek() == Some(b'#') {
            hashes += 1;
            self.bump();
        }
        if self.peek() != Some(b'"') {
            return;
        }
        self.bump();
        while self.peek().is_some() {
            if self.peek() == Some(b'"') && (1..=hashes).all(|k| self.peek_at(k) == Some(b'#')) {
                for _ in 0..=hashes {
                    self.bump();
                }
                return;
            }
            self.bump();
        }
    }

    fn value(&mut self, path: String) {
        self.skip_trivia();
        if self.depth > MAX_DEPTH {
            return;
        }
        let at = self.out.len();
        self.out.push((
            path.clone(),
            ValueSpan {
                start: self.i,
                end: self.i,
                line: self.line,
                col: self.col,
                kind: ValueKind::Other,
                has_fields: false,
            },
        ));
        self.depth += 1;
        let (kind, has_fields) = match self.peek() {
            Some(b'"') => {
                self.string();
                (ValueKind::Str, false)
            }
            Some(b'r') if matches!(self.peek_at(1), Some(b'#' | b'"')) => {
                self.raw_string();
                (ValueKind::Str, false)
            }
            Some(b'\'') => {
                self.bump();
                while let Some(c) = self.peek() {
                    self.bump();
                    if c == b'\\' {
                        self.bump();
                    } else if c == b'\'' {
                        break;
                    }
                }
                (ValueKind::Other, false)
            }
            Some(b'(') => (ValueKind::Parens, self.parens(&path)),
            Some(b'[') => {
                self.seq(&path);
                (ValueKind::Seq, false)
            }
            Some(b'{') => {
                self.map(&path);
                (ValueKind::Map, true)
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let name = self.ident();
                // The word ends here unless a `(` follows (`Some(…)`,
                // `Evidence(Blue)`, `PlayerCard(…)`): the span must not
                // take in the blanks or comment after a bare word.
                let after_word = (self.i, self.line, self.col);
                self.skip_trivia();
                if self.peek() != Some(b'(') {
                    (self.i, self.line, self.col) = after_word;
                    (ValueKind::Word, false)
                } else if name == "Some" {
                    // `Some(x)` is also the value `x` at the same path.
                    self.bump();
                    self.value(path.clone());
                    self.skip_trivia();
                    if self.peek() == Some(b')') {
                        self.bump();
                    }
                    (ValueKind::Parens, false)
                } else {
                    (ValueKind::Parens, self.parens(&path))
                }
            }
            Some(_) => {
                // a number, a sign, or something unknown: up to a delimiter
                while self.peek().is_some_and(|c| {
                    !matches!(c, b',' | b')' | b']' | b'}' | b'/') && !c.is_ascii_whitespace()
                }) {
                    self.bump();
                }
                (ValueKind::Num, false)
            }
            None => (ValueKind::Other, false),
        };
        self.depth -= 1;
        let span = &mut self.out[at].1;
        span.end = self.i;
        span.kind = kind;
        span.has_fields = has_fields;
    }

    fn join_field(path: &str, name: &str) -> String {
        if path.is_empty() {
            name.to_string()
        } else {
            format!("{path}.{name}")
        }
    }

    /// `( ... )`: a struct body (`name: value, …`) or a tuple (`value, …`);
    /// whether it had named fields.
    fn parens(&mut self, path: &str) -> bool {
        self.bump(); // (
        let (mut index, mut named) = (0, false);
        loop {
            self.skip_trivia();
            match self.peek() {
                None => return named,
                Some(b')') => {
                    self.bump();
                    return named;
                }
                Some(b',') => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let before = self.i;
            // `name:` (but not `name::`) starts a field
            let save = (self.i, self.line, self.col);
            let mut field = None;
            if self
                .peek()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
            {
                let name = self.ident();
                self.skip_trivia();
                if self.peek() == Some(b':') && self.peek_at(1) != Some(b':') {
                    self.bump();
                    field = Some(name);
                } else {
                    (self.i, self.line, self.col) = save;
                }
            }
            match field {
                Some(name) => {
                    named = true;
                    self.value(Self::join_field(path, &name));
                }
                None => {
                    self.value(format!("{path}[{index}]"));
                    index += 1;
                }
            }
            if self.i == before {
                self.bump(); // never loop without progress
            }
        }
    }

    fn seq(&mut self, path: &str) {
        self.bump(); // [
        let mut index = 0;
        loop {
            self.skip_trivia();
            match self.peek() {
                None => return,
                Some(b']') => {
                    self.bump();
                    return;
                }
                Some(b',') => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let before = self.i;
            self.value(format!("{path}[{index}]"));
            index += 1;
            if self.i == before {
                self.bump();
            }
        }
    }

    fn map(&mut self, path: &str) {
        self.bump(); // {
        loop {
            self.skip_trivia();
            match self.peek() {
                None => return,
                Some(b'}') => {
                    self.bump();
                    return;
                }
                Some(b',') => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let before = self.i;
            let key = if self.peek() == Some(b'"') {
                self.string()
            } else {
                let k = self.ident();
                if k.is_empty() {
                    self.bump();
                }
                k
            };
            self.skip_trivia();
            if self.peek() == Some(b':') {
                self.bump();
                self.value(format!("{path}[\"{key}\"]"));
            }
            if self.i == before {
                self.bump();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fields_and_elements() {
        let text = "// c\nBoard(\n  name: \"x\",\n  spaces: [\n    (id: \"a\", kind: Evidence(Blue)),\n    (id: \"b\"),\n  ],\n)\n";
        let m = SourceMap::build(text);
        assert_eq!(m.get("name"), Some((3, 9)));
        assert_eq!(m.get("spaces[1].id"), Some((6, 10)));
        assert_eq!(m.get("spaces[0].kind[0]"), Some((5, 30)));
        assert_eq!(m.locate("spaces[1].missing"), (6, 5));
    }

    #[test]
    fn some_is_transparent() {
        let m = SourceMap::build("(position: Some((\n  round: 2,\n  track: [(at: \"E2\")],\n)))");
        assert_eq!(m.get("position.round"), Some((2, 10)));
        assert_eq!(m.get("position.track[0].at"), Some((3, 16)));
    }

    /// The nearest recorded value at or before a position.
    #[test]
    fn path_before_a_position() {
        let m = SourceMap::build("(a: 1,\n b: (c: \"x\"))");
        assert_eq!(m.path_at(2, 12).as_deref(), Some("b.c"));
    }

    /// A value's span runs from its first character to its last: never the
    /// blanks or comment after it.
    #[test]
    fn spans_end_where_the_value_ends() {
        let text = "(a: Nixon // c\n, b: Some([1, 2]), c: 3/* x */)";
        let all = spans(text);
        let at = |p: &str| {
            let (_, s) = all.iter().find(|(q, _)| q == p).unwrap();
            (&text[s.start..s.end], s.kind)
        };
        assert_eq!(at("a"), ("Nixon", ValueKind::Word));
        assert_eq!(at("b"), ("Some([1, 2])", ValueKind::Parens));
        assert_eq!(at("b[1]"), ("2", ValueKind::Num));
        assert_eq!(at("c"), ("3", ValueKind::Num));
        let b: Vec<&str> = all
            .iter()
            .filter(|(q, _)| q == "b")
            .map(|(_, s)| &text[s.start..s.end])
            .collect();
        assert_eq!(b, ["Some([1, 2])", "[1, 2]"]);
    }

    #[test]
    fn survives_garbage() {
        for t in [
            "(((((",
            "[\"unterminated",
            "r##\"x",
            "{a:",
            "/* /* */",
            "(a:: b)",
        ] {
            let _ = SourceMap::build(t);
        }
    }
}
