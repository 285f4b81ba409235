//! Diagnostics: problems found in data files, scripts and scenarios, each
//! pinned to `path:line:col`. Loaders collect every problem before failing,
//! so a designer sees all of them at once.

use std::fmt;

/// One problem in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file as the user knows it (relative to the data root, or as given).
    pub path: String,
    /// 1-based line; 0 when there is no text to point into (a missing or
    /// refused file): then the diagnostic shows as `path: message`.
    pub line: usize,
    /// 1-based column; 0 when unknown.
    pub col: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl Diagnostic {
    /// A problem at `line:col` of the file `path` (both from 1; 0 when there
    /// is no text to point into, see [`Diagnostic::unread`]).
    pub fn new(
        path: impl Into<String>,
        line: usize,
        col: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            path: path.into(),
            line,
            col,
            message: message.into(),
        }
    }

    /// A problem about a whole file whose text was read (an unexpected
    /// file, a folder's missing card), shown at its start.
    pub fn file(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic::new(path, 1, 1, message)
    }

    /// A problem with a file or folder that has no text to point into
    /// (missing, unreadable, refused): shown as `path: message`, with no
    /// line and column.
    pub fn unread(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic::new(path, 0, 0, message)
    }

    /// The line of `source` the diagnostic points at, with a caret under the
    /// column: what a terminal user sees below the one-line message.
    pub fn snippet(&self, source: &str) -> Option<String> {
        if self.line == 0 {
            return None;
        }
        let line: Vec<char> = source.lines().nth(self.line - 1)?.chars().collect();
        let width = self.line.to_string().len();
        // A long line (a 3 MB name on one line) is shown as a window of
        // `WINDOW` characters around the column, its cut ends as `…`.
        const WINDOW: usize = 100;
        let at = self.col.saturating_sub(1).min(line.len());
        let start = if line.len() > WINDOW {
            at.saturating_sub(WINDOW / 2).min(line.len() - WINDOW)
        } else {
            0
        };
        let end = line.len().min(start + WINDOW);
        let (before, after) = (
            if start > 0 { "…" } else { "" },
            if end < line.len() { "…" } else { "" },
        );
        let text = format!(
            "{before}{}{after}",
            line[start..end].iter().collect::<String>()
        );
        let caret_pad: String = before
            .chars()
            .map(|_| ' ')
            .chain(
                line[start..at]
                    .iter()
                    .map(|c| if *c == '\t' { '\t' } else { ' ' }),
            )
            .collect();
        Some(format!(
            "{:>width$} | {}\n{:>width$} | {}^",
            self.line,
            text,
            "",
            caret_pad,
            width = width
        ))
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            // No text to point into: the path alone.
            return write!(f, "{}: {}", self.path, self.message);
        }
        write!(
            f,
            "{}:{}:{}: {}",
            self.path, self.line, self.col, self.message
        )
    }
}

/// Every problem found by one load, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Adds a problem.
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    /// Whether no problem was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many problems there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Adds every problem of `other`.
    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }

    /// Sorted by path, line and column, duplicates dropped.
    pub fn sorted(mut self) -> Self {
        self.0.sort_by(|a, b| {
            (a.path.as_str(), a.line, a.col, a.message.as_str()).cmp(&(
                b.path.as_str(),
                b.line,
                b.col,
                b.message.as_str(),
            ))
        });
        self.0.dedup();
        self
    }

    /// The problems, in their order.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// 1-based line and column of a byte offset in `text` (columns count chars).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let t = "ab\ncd\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 4), (2, 2));
    }

    #[test]
    fn a_file_without_text_has_no_position() {
        let d = Diagnostic::unread("/nope.ron", "cannot read: no such file");
        assert_eq!(d.to_string(), "/nope.ron: cannot read: no such file");
        assert_eq!(d.snippet("anything"), None);
        assert_eq!(
            Diagnostic::new("a.ron", 2, 3, "bad").to_string(),
            "a.ron:2:3: bad"
        );
    }

    #[test]
    fn snippet_points_at_column() {
        let d = Diagnostic::new("f.ron", 2, 3, "bad");
        assert_eq!(d.snippet("x\nabcd\n").unwrap(), "2 | abcd\n  |   ^");
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_column() {
        let line = format!("{}X{}", "a".repeat(3000), "b".repeat(3000));
        let d = Diagnostic::new("f.ron", 1, 3001, "bad");
        let snippet = d.snippet(&line).unwrap();
        let (text, caret) = snippet.split_once('\n').unwrap();
        assert!(text.chars().count() < 110, "{text}");
        assert!(text.starts_with("1 | …a") && text.ends_with("b…"), "{text}");
        // The caret is under the X.
        let x = text.chars().position(|c| c == 'X').unwrap();
        assert_eq!(caret.chars().position(|c| c == '^'), Some(x));
        // Near the start of a long line, and at its end: one cut only.
        let d = Diagnostic::new("f.ron", 1, 2, "bad");
        let snippet = d.snippet(&line).unwrap();
        assert!(
            snippet.starts_with("1 | aa") && snippet.contains("a…\n"),
            "{snippet}"
        );
        let d = Diagnostic::new("f.ron", 1, 6001, "bad");
        let snippet = d.snippet(&line).unwrap();
        let (text, caret) = snippet.split_once('\n').unwrap();
        assert!(text.starts_with("1 | …b") && text.ends_with('b'), "{text}");
        assert_eq!(caret.chars().count(), text.chars().count());
    }
}
