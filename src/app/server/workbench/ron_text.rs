//! The values of a RON file as form fields, and an edit of one of them
//! that replaces exactly that value's text and nothing else: comments,
//! blank lines, alignment and the order of the fields stay as the designer
//! wrote them.
//!
//! Where each value starts and ends comes from the core's one RON scanner,
//! `data::srcmap::spans`, which also places the diagnostics; paths are its
//! paths: `value`, `settings.named_colour_locked`, `spaces[3].kind`,
//! `map["key"]`.

use crate::data::srcmap::{spans, ValueKind, ValueSpan};

/// The span of the value at exactly `path` (for `Some(x)`, the whole
/// `Some(…)`).
#[cfg(test)]
fn find(text: &str, path: &str) -> Option<ValueSpan> {
    spans(text)
        .into_iter()
        .find(|(p, _)| p == path)
        .map(|(_, s)| s)
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
    every_field(text, spans(text))
        .take(MAX_FIELDS)
        .map(|(f, _)| f)
        .collect()
}

/// [`fields`], all of them, each with the span its value has in `text`.
fn every_field(
    text: &str,
    all: Vec<(String, ValueSpan)>,
) -> impl Iterator<Item = (Field, ValueSpan)> + '_ {
    let mut previous_path = None::<String>;
    all.into_iter()
        .filter(|(p, _)| !p.is_empty())
        // `Some(x)`'s `x` at the same path: the form offers `Some(…)`.
        .filter(move |(p, _)| {
            let repeat = previous_path.as_deref() == Some(p.as_str());
            previous_path = Some(p.clone());
            !repeat
        })
        .filter_map(|(path, s)| {
            let raw = text.get(s.start..s.end)?;
            let (kind, value) = match s.kind {
                ValueKind::Str => ("string", unquote(raw)?),
                ValueKind::Num => ("number", raw.to_string()),
                // An optional left out (`informant: None`) is filled in as
                // RON (`Some("Woods")`), which one word would refuse.
                ValueKind::Word if raw == "None" => ("ron", raw.to_string()),
                ValueKind::Word => ("word", raw.to_string()),
                ValueKind::Seq | ValueKind::Parens
                    if !s.has_fields && !raw.contains('\n') && raw.len() <= MAX_RAW_FIELD =>
                {
                    ("ron", raw.to_string())
                }
                _ => return None,
            };
            let field = Field {
                path,
                kind,
                value,
                line: s.line,
            };
            Some((field, s))
        })
        // A list's items are not offered again when the list is. Values
        // come in text order, so an offered list's items follow it at once:
        // one look back, not a search of every field before (a text of a
        // hundred thousand values is checked as fast as a card).
        .scan(None::<String>, |offered, (f, s)| {
            let inside = offered.as_deref().is_some_and(|o: &str| {
                f.path.len() > o.len()
                    && f.path.starts_with(o)
                    && f.path[o.len()..].starts_with(['[', '.'])
            });
            if inside {
                return Some(None);
            }
            *offered = (f.kind == "ron").then(|| f.path.clone());
            Some(Some((f, s)))
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
    // One scan of the text serves both questions: is there such a value,
    // and is it one a form can edit.
    let all = spans(text);
    if !all.iter().any(|(p, _)| p == path) {
        return Err(format!("the file has no field `{path}`"));
    }
    let (field, span) = every_field(text, all)
        .find(|(f, _)| f.path == path)
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
            // Exactly one value: `[Blue, Green` or `[Blue], quote: "x"` or
            // `[Green] /*` would change the fields after it.
            if let Err(e) = crate::data::ron_options().from_str::<ron::Value>(v) {
                return Err(format!("`{path}`: `{v}` is not one RON value ({})", e.code));
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
        assert_eq!(at("number"), ("10", 3, ValueKind::Num));
        assert_eq!(
            at("name"),
            ("\"Gordon \\\"G\\\" Liddy\"", 4, ValueKind::Str)
        );
        assert_eq!(at("side"), ("Nixon", 5, ValueKind::Word));
        assert_eq!(at("colours"), ("[Blue]", 7, ValueKind::Seq));
        assert_eq!(
            at("requirement"),
            ("Some(PictureInSupply(\"Dean\"))", 9, ValueKind::Parens)
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
        // RON text for one value is one value, and nothing after it.
        for bad in [
            "[Blue, Green",
            "[Blue], quote: \"x\"",
            "[Green] /*",
            "[Blue]]",
        ] {
            let e = set_field(CARD, "colours", bad).unwrap_err();
            assert!(e.contains("is not one RON value"), "{bad}: {e}");
        }
        for good in ["[Blue, Green]", "[]", "[Yellow] // a comment"] {
            assert!(set_field(CARD, "colours", good).is_ok(), "{good}");
        }
        assert!(set_field(CARD, "requirement", "Some(PictureInSupply(\"Woods\"))").is_ok());
        // A `None` is an optional left out: the form fills it in as RON.
        let informant = fields(CARD)
            .into_iter()
            .find(|f| f.path == "informant")
            .unwrap();
        assert_eq!((informant.kind, informant.value.as_str()), ("ron", "None"));
        let out = set_field(CARD, "informant", "Some(\"Woods\")").unwrap();
        assert!(out.contains("    informant: Some(\"Woods\"),\n"), "{out}");
        assert!(set_field(&out, "informant", "None").is_ok());
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
