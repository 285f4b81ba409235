//! Loading the game from data files: stage one parses RON into the raw
//! definitions of [`raw`]; stage two ([`validate`]) checks them and builds
//! [`crate::rules::Rules`], reporting every problem with `path:line:col`.

pub mod raw;
pub mod source;
pub mod srcmap;
pub mod validate;

pub use source::DataSet;

use crate::diag::{Diagnostic, Diagnostics};
use crate::rules::Rules;
use serde::de::DeserializeOwned;
use srcmap::SourceMap;

/// A parsed file: its definition, where it came from and where its values stand.
pub struct Parsed<T> {
    pub def: T,
    /// Path relative to the data root.
    pub rel: String,
    /// Path as shown to the user.
    pub display: String,
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
        Diagnostic::new(
            display,
            e.span.start.line,
            e.span.start.col,
            explain_ron_error(&e.code),
        )
    })
}

/// The RON error in words a designer can act on.
pub fn explain_ron_error(code: &ron::Error) -> String {
    let s = code.to_string();
    // ron says "Unexpected field named `x` in `Y`, expected one of …"; keep it whole.
    s.trim_end_matches('.').to_string()
}

/// Decodes a data file as UTF-8 text.
pub fn text_of<'a>(ds: &'a DataSet, rel: &str) -> Result<&'a str, Diagnostic> {
    let bytes = ds
        .get(rel)
        .ok_or_else(|| Diagnostic::file(ds.display_path(rel), "missing file"))?;
    std::str::from_utf8(bytes).map_err(|e| {
        let (line, col) = crate::diag::line_col(
            &String::from_utf8_lossy(&bytes[..e.valid_up_to()]),
            e.valid_up_to(),
        );
        Diagnostic::new(
            ds.display_path(rel),
            line,
            col,
            "not valid UTF-8 text: expected a RON or rhai text file",
        )
    })
}

/// Parses a data file into a definition with its source map.
pub fn parse_file<T: DeserializeOwned>(ds: &DataSet, rel: &str) -> Result<Parsed<T>, Diagnostic> {
    let display = ds.display_path(rel);
    let text = text_of(ds, rel)?;
    let def = parse_ron::<T>(&display, text)?;
    Ok(Parsed {
        def,
        rel: rel.to_string(),
        display,
        map: SourceMap::build(text),
    })
}

/// Loads and checks a whole data set.
pub fn load(ds: &DataSet) -> Result<Rules, Diagnostics> {
    validate::validate(ds)
}

/// The data shipped in the binary, loaded. Panics only if the shipped data
/// is broken, which the test suite rules out.
pub fn shipped() -> Rules {
    match load(&DataSet::embedded()) {
        Ok(r) => r,
        Err(d) => panic!("the shipped data does not load:\n{d}"),
    }
}
