//! Where each value of a RON file stands, from its first character to its
//! last, so that a form field edit replaces exactly that value's text and
//! nothing else: comments, blank lines, alignment and the order of the
//! fields stay as the designer wrote them. (`data::srcmap` records where a
//! value starts, for diagnostics; an edit needs where it ends too.)
//!
//! Paths are `srcmap`'s: `value`, `settings.named_colour_locked`,
//! `spaces[3].kind`, `map["key"]`. The scanner reads structure only
//! (brackets, field names, strings, comments) and never fails: on text it
//! does not understand it records less, and the check reports the file.

/// What a value looks like in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
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
    /// A character literal or anything else.
    Other,
}

/// One value: its byte range in the text, the line it starts on (from 1),
/// and whether it holds named fields (a struct: not one form field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub kind: Kind,
    pub has_fields: bool,
}

/// Nesting deeper than this is not followed (the check reports such a file).
const MAX_DEPTH: usize = 64;

/// Every value of `text`, by path, in the order they appear; `""` is the
/// whole file's value.
pub fn spans(text: &str) -> Vec<(String, Span)> {
    let mut s = Scan {
        b: text.as_bytes(),
        i: 0,
        line: 1,
        out: Vec::new(),
        depth: 0,
    };
    s.value(String::new());
    s.out
}

/// The span of the value at exactly `path`.
pub fn find(text: &str, path: &str) -> Option<Span> {
    spans(text)
        .into_iter()
        .find(|(p, _)| p == path)
        .map(|(_, s)| s)
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
    out: Vec<(String, Span)>,
    depth: usize,
}

impl Scan<'_> {
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
            }
        }
    }

    fn trivia(&mut self) {
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

    /// Skips `"…"` (at its `"`), returning its raw content.
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
        self.trivia();
        if self.depth > MAX_DEPTH || self.peek().is_none() {
            return;
        }
        let (start, line) = (self.i, self.line);
        let at = self.out.len();
        self.out.push((
            path.clone(),
            Span {
                start,
                end: start,
                line,
                kind: Kind::Other,
                has_fields: false,
            },
        ));
        self.depth += 1;
        let (kind, has_fields) = match self.peek() {
            Some(b'"') => {
                self.string();
                (Kind::Str, false)
            }
            Some(b'r') if matches!(self.peek_at(1), Some(b'#' | b'"')) => {
                self.raw_string();
                (Kind::Str, false)
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
                (Kind::Other, false)
            }
            Some(b'(') => (Kind::Parens, self.parens(&path)),
            Some(b'[') => {
                self.seq(&path);
                (Kind::Seq, false)
            }
            Some(b'{') => {
                self.map(&path);
                (Kind::Map, true)
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                self.ident();
                // The word ends here unless a `(` follows (`Some(…)`,
                // `Evidence(Blue)`, `PlayerCard(…)`): the span must not
                // take in the blanks or comment after a bare word.
                let (end, end_line) = (self.i, self.line);
                self.trivia();
                if self.peek() == Some(b'(') {
                    (Kind::Parens, self.parens(&path))
                } else {
                    (self.i, self.line) = (end, end_line);
                    (Kind::Word, false)
                }
            }
            Some(_) => {
                while self.peek().is_some_and(|c| {
                    !matches!(c, b',' | b')' | b']' | b'}' | b'/') && !c.is_ascii_whitespace()
                }) {
                    self.bump();
                }
                (Kind::Num, false)
            }
            None => (Kind::Other, false),
        };
        self.depth -= 1;
        let span = &mut self.out[at].1;
        span.end = self.i;
        span.kind = kind;
        span.has_fields = has_fields;
    }

    fn join(path: &str, name: &str) -> String {
        if path.is_empty() {
            name.to_string()
        } else {
            format!("{path}.{name}")
        }
    }

    /// `( … )`: struct fields (`name: value`) or tuple elements; whether
    /// there were named fields.
    fn parens(&mut self, path: &str) -> bool {
        self.bump();
        let (mut index, mut named) = (0, false);
        loop {
            self.trivia();
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
            let save = (self.i, self.line);
            let mut field = None;
            if self
                .peek()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
            {
                let name = self.ident();
                self.trivia();
                if self.peek() == Some(b':') && self.peek_at(1) != Some(b':') {
                    self.bump();
                    field = Some(name);
                } else {
                    (self.i, self.line) = save;
                }
            }
            match field {
                Some(name) => {
                    named = true;
                    self.value(Self::join(path, &name));
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
        self.bump();
        let mut index = 0;
        loop {
            self.trivia();
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
        self.bump();
        loop {
            self.trivia();
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
                self.ident()
            };
            self.trivia();
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

/// A form field: a value the page can edit in a box of its own.
#[derive(Clone, Debug, serde::Serialize, PartialEq, Eq)]
pub struct Field {
    pub path: String,
    /// `string` (the box holds the text, unquoted), `number`, `word`
    /// (`true`, `None`, `Nixon`) or `ron` (a short value as RON text:
    /// `[Blue, Red]`, `Some("Woods")`).
    pub kind: &'static str,
    pub value: String,
    pub line: usize,
}

/// The longest value offered as one `ron` form field.
const MAX_RAW_FIELD: usize = 160;
/// The most fields a form offers (the board, the largest file, has a few
/// hundred); the rest of a larger text is edited as text.
pub const MAX_FIELDS: usize = 2000;

/// The file's values a form can edit one by one: strings, numbers, words,
/// and short one-line lists and variants; not a struct as a whole (its
/// fields are offered instead).
pub fn fields(text: &str) -> Vec<Field> {
    every_field(text).take(MAX_FIELDS).collect()
}

/// [`fields`], all of them.
fn every_field(text: &str) -> impl Iterator<Item = Field> + '_ {
    spans(text)
        .into_iter()
        .filter(|(p, _)| !p.is_empty())
        .filter_map(|(path, s)| {
            let raw = text.get(s.start..s.end)?;
            let (kind, value) = match s.kind {
                Kind::Str => ("string", unquote(raw)?),
                Kind::Num => ("number", raw.to_string()),
                Kind::Word => ("word", raw.to_string()),
                Kind::Seq | Kind::Parens
                    if !s.has_fields && !raw.contains('\n') && raw.len() <= MAX_RAW_FIELD =>
                {
                    ("ron", raw.to_string())
                }
                _ => return None,
            };
            Some(Field {
                path,
                kind,
                value,
                line: s.line,
            })
        })
        // A list's items are not offered again when the list is. Values
        // come in text order, so an offered list's items follow it at once:
        // one look back, not a search of every field before (a text of a
        // hundred thousand values is checked as fast as a card).
        .scan(None::<String>, |offered, f| {
            let inside = offered.as_deref().is_some_and(|o: &str| {
                f.path.len() > o.len()
                    && f.path.starts_with(o)
                    && f.path[o.len()..].starts_with(['[', '.'])
            });
            if inside {
                return Some(None);
            }
            *offered = (f.kind == "ron").then(|| f.path.clone());
            Some(Some(f))
        })
        .flatten()
}

/// The text of a RON string literal.
fn unquote(raw: &str) -> Option<String> {
    ron::from_str::<String>(raw).ok()
}

/// `text` as a RON string literal (quotes and escapes).
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` with the value at `path` replaced by `value` (as the field's
/// kind reads it: plain text for a string, digits for a number, one word,
/// or RON text); every other character of the file stays as it was.
pub fn set_field(text: &str, path: &str, value: &str) -> Result<String, String> {
    let span = find(text, path).ok_or_else(|| format!("the file has no field `{path}`"))?;
    let field = every_field(text)
        .find(|f| f.path == path)
        .ok_or_else(|| format!("`{path}` is not one value a form can edit: edit it in the text"))?;
    let new = match field.kind {
        "string" => quote(value),
        "number" => {
            let v = value.trim();
            let digits = v.strip_prefix('-').unwrap_or(v);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("`{path}`: `{v}` is not a whole number"));
            }
            v.to_string()
        }
        "word" => {
            let v = value.trim();
            let ok = v
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
                && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            if !ok {
                return Err(format!(
                    "`{path}`: `{v}` is not one word (letters, digits and _)"
                ));
            }
            v.to_string()
        }
        _ => {
            let v = value.trim();
            if v.is_empty() || v.contains('\n') {
                return Err(format!("`{path}`: give the value as one line of RON"));
            }
            v.to_string()
        }
    };
    let mut out = String::with_capacity(text.len() + new.len());
    out.push_str(&text[..span.start]);
    out.push_str(&new);
    out.push_str(&text[span.end..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARD: &str = "// Gordon Liddy — card 10.\nPlayerCard(\n    number: 10, // D1\n    name: \"Gordon \\\"G\\\" Liddy\",\n    side: Nixon,\n    value: 3,\n    colours: [Blue],\n    informant: None,\n    requirement: Some(PictureInSupply(\"Dean\")),\n    provenance: (\n        source: \"x\",\n        placeholders: [\"number\"],\n    ),\n)\n";

    #[test]
    fn values_are_found_from_their_first_to_their_last_character() {
        let at = |p: &str| {
            let s = find(CARD, p).unwrap_or_else(|| panic!("{p}"));
            (&CARD[s.start..s.end], s.line, s.kind)
        };
        assert_eq!(at("number"), ("10", 3, Kind::Num));
        assert_eq!(at("name"), ("\"Gordon \\\"G\\\" Liddy\"", 4, Kind::Str));
        assert_eq!(at("side"), ("Nixon", 5, Kind::Word));
        assert_eq!(at("colours"), ("[Blue]", 7, Kind::Seq));
        assert_eq!(
            at("requirement"),
            ("Some(PictureInSupply(\"Dean\"))", 9, Kind::Parens)
        );
        assert_eq!(at("provenance.placeholders[0]").0, "\"number\"");
        assert!(find(CARD, "provenance").unwrap().has_fields);
    }

    #[test]
    fn a_field_edit_changes_that_value_only() {
        let out = set_field(CARD, "number", "11").unwrap();
        assert_eq!(out, CARD.replacen("number: 10,", "number: 11,", 1));
        let out = set_field(CARD, "name", "Liddy \"the\" \\ G\n").unwrap();
        assert!(
            out.contains("    name: \"Liddy \\\"the\\\" \\\\ G\\n\",\n"),
            "{out}"
        );
        assert_eq!(
            fields(&out)
                .iter()
                .find(|f| f.path == "name")
                .unwrap()
                .value,
            "Liddy \"the\" \\ G\n"
        );
        let out = set_field(CARD, "colours", "[Blue, Red]").unwrap();
        assert_eq!(out, CARD.replacen("[Blue]", "[Blue, Red]", 1));
        let out = set_field(CARD, "side", "Editor").unwrap();
        assert!(out.contains("side: Editor,\n") && out.starts_with("// Gordon"));
    }

    #[test]
    fn a_bad_value_or_path_is_refused_with_its_reason() {
        assert!(set_field(CARD, "number", "ten")
            .unwrap_err()
            .contains("not a whole number"));
        assert!(set_field(CARD, "side", "Nix on")
            .unwrap_err()
            .contains("one word"));
        assert!(set_field(CARD, "nope", "1")
            .unwrap_err()
            .contains("no field `nope`"));
        assert!(set_field(CARD, "provenance", "()")
            .unwrap_err()
            .contains("edit it in the text"));
    }

    #[test]
    fn the_form_offers_leaves_not_structs_nor_a_list_s_items_twice() {
        let f = fields(CARD);
        let paths: Vec<&str> = f.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "number",
                "name",
                "side",
                "value",
                "colours",
                "informant",
                "requirement",
                "provenance.source",
                "provenance.placeholders"
            ]
        );
    }

    #[test]
    fn every_shipped_file_s_fields_are_found_and_an_edit_round_trips() {
        let ds = crate::data::DataSet::embedded();
        for (rel, bytes) in &ds.files {
            if !rel.ends_with(".ron") {
                continue;
            }
            let text = std::str::from_utf8(bytes).unwrap();
            let f = fields(text);
            assert!(!f.is_empty(), "{rel}");
            for field in f.iter().filter(|f| f.kind != "ron") {
                // Writing a field's own value back gives the file unchanged
                // (strings may be written with other escapes: compare values).
                let out = set_field(text, &field.path, &field.value).unwrap();
                let again = fields(&out);
                assert_eq!(f, again, "{rel}: {}", field.path);
            }
        }
    }

    #[test]
    fn hostile_text_never_panics() {
        for t in [
            "",
            "(",
            "\"",
            "r#\"",
            "[[[[",
            "(a: ",
            "{\"k\": (",
            "x(",
            "/*",
            "é(ü: \"",
            "(a:-)",
        ] {
            let _ = spans(t);
            let _ = fields(t);
            let _ = set_field(t, "a", "1");
        }
        let deep = "[".repeat(10_000);
        let _ = spans(&deep);
    }

    #[test]
    fn a_huge_text_is_read_in_linear_time_and_its_form_is_bounded() {
        // 200,000 values (a 256 KiB request holds no more): once quadratic.
        let text = format!("(a: [{}], b: 2)", "1,".repeat(200_000));
        let t = std::time::Instant::now();
        let f = fields(&text);
        assert_eq!(f.len(), MAX_FIELDS);
        assert_eq!(f[0].path, "a[0]");
        assert!(
            t.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            t.elapsed()
        );
        assert_eq!(
            set_field(&text, "b", "3").unwrap(),
            text.replacen("b: 2", "b: 3", 1)
        );
    }
}
