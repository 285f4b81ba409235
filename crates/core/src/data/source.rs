//! Where the data files come from: the copy embedded in the binary (so
//! `watergate` works from any directory) or a directory a designer edits.
//! Either way the loader sees the same thing: relative paths and contents.

use crate::diag::{Diagnostic, Diagnostics};
#[cfg(feature = "shipped-data")]
use include_dir::{include_dir, Dir};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[cfg(feature = "shipped-data")]
static CARDS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../cards");
#[cfg(feature = "shipped-data")]
static SCRIPTS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../scripts");
/// The shipped puzzles and variants (`scenarios/puzzles`, `scenarios/variants`).
#[cfg(feature = "shipped-data")]
static SCENARIOS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../scenarios");

/// The folder of the shipped scenarios and variants, as relative paths name them.
pub const SHIPPED_SCENARIOS: &str = "scenarios";

/// Folders nested deeper than this under `cards/` or `scripts/` are refused
/// (a symbolic link to a parent folder would otherwise be walked forever).
const MAX_FOLDER_DEPTH: usize = 16;

/// `a/b/../c` → `a/c` without touching the file system; `None` for an
/// absolute path or one that climbs above its start.
pub fn normalise(p: &Path) -> Option<String> {
    use std::path::Component;
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str()?.to_string()),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// Why `rel` is not the path of a file in the data, or `None` when it is:
/// a data path is relative, under `cards/` or `scripts/`, written with `/`,
/// and has no empty, `.` or `..` part. A variant's `files` name their slot
/// with one, and `DataSet::write_to` writes each file at its path: a
/// `cards/../../x` would be written outside the folder exported to.
pub fn data_path_problem(rel: &str) -> Option<String> {
    if !DATA_FOLDERS
        .iter()
        .any(|f| rel.strip_prefix(f).is_some_and(|r| r.starts_with('/')))
    {
        return Some(format!(
            "`{rel}`: expected a data path under `cards/` or `scripts/`"
        ));
    }
    if rel.contains('\\')
        || rel
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..")
    {
        return Some(format!(
            "`{rel}`: expected a plain data path, without `..`, `.` or empty parts and with `/` between folders (e.g. `scripts/nixon/gambit.rhai`)"
        ));
    }
    None
}

/// The shipped copy of `path`, when `path` is relative and names a file
/// under `scenarios/` embedded in the binary (`scenarios/variants/board_2025.ron`,
/// `scenarios/puzzles/../variants/old_board.ron`). Callers look on disk
/// first ([`crate::data::read_data_file`]).
pub fn shipped_file(path: &Path) -> Option<&'static [u8]> {
    let rel = normalise(path)?;
    let inner = rel.strip_prefix(SHIPPED_SCENARIOS)?.strip_prefix('/')?;
    #[cfg(feature = "shipped-data")]
    {
        SCENARIOS.get_file(inner).map(|f| f.contents())
    }
    #[cfg(not(feature = "shipped-data"))]
    {
        let _ = inner;
        None
    }
}

/// `path` as the shipped file it names when no file lies there on disk
/// (`scenarios/puzzles/../variants/old_board.ron` →
/// `scenarios/variants/old_board.ron`): the name a saved file writes for
/// it, which loads the built-in copy from any folder.
pub fn shipped_name(path: &Path) -> Option<PathBuf> {
    if path.exists() || shipped_file(path).is_none() {
        return None;
    }
    normalise(path).map(PathBuf::from)
}

/// Every shipped scenario and variant file, by its relative path
/// (`scenarios/puzzles/01_reaction_chain.ron`), sorted.
pub fn shipped_scenario_paths() -> Vec<PathBuf> {
    #[allow(unused_mut)]
    let mut out = Vec::new();
    #[cfg(feature = "shipped-data")]
    {
        fn walk(d: &Dir<'static>, out: &mut Vec<PathBuf>) {
            for f in d.files() {
                out.push(Path::new(SHIPPED_SCENARIOS).join(f.path()));
            }
            for sub in d.dirs() {
                walk(sub, out);
            }
        }
        walk(&SCENARIOS, &mut out);
        out.sort();
    }
    out
}

/// The top-level folders of a data root.
pub const DATA_FOLDERS: [&str; 2] = ["cards", "scripts"];

/// A set of data files keyed by their path relative to the data root
/// (`cards/board.ron`, `scripts/nixon/howard_hunt.rhai`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataSet {
    /// The directory the files were read from; `None` for the embedded copy.
    pub root: Option<PathBuf>,
    /// The file contents, by path relative to the data root.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Files under the root that were not read (refused or unreadable: see
    /// [`crate::data::read_user_file`]), by relative path, with the reason:
    /// the loader reports each with the other problems.
    pub unread: BTreeMap<String, String>,
    /// Files that came from elsewhere than the root (a variant's `files`
    /// and `add_cards`), by relative path: the path a user knows them by.
    /// `display_path` names them so, so that a problem found in one, at
    /// load or when its script runs, points into the file the user wrote
    /// rather than at a slot of the data.
    pub shown: BTreeMap<String, String>,
}

impl DataSet {
    /// The data shipped inside the binary. Built without the
    /// `shipped-data` feature, the set is empty (loading it reports every
    /// missing file).
    pub fn embedded() -> DataSet {
        #[cfg(feature = "shipped-data")]
        {
            let mut files = BTreeMap::new();
            for (prefix, dir) in [("cards", &CARDS), ("scripts", &SCRIPTS)] {
                collect_embedded(dir, prefix, &mut files);
            }
            DataSet {
                root: None,
                files,
                unread: BTreeMap::new(),
                shown: BTreeMap::new(),
            }
        }
        #[cfg(not(feature = "shipped-data"))]
        DataSet::default()
    }

    /// Reads `dir/cards/**` and `dir/scripts/**`.
    pub fn from_dir(dir: &Path) -> Result<DataSet, Diagnostics> {
        let mut files = BTreeMap::new();
        let mut unread = BTreeMap::new();
        let mut diags = Diagnostics::default();
        if !dir.is_dir() {
            // Whether there is nothing there or a file: the fixes differ.
            let what = if dir.exists() {
                "a file, not a folder"
            } else {
                "does not exist"
            };
            diags.push(Diagnostic::unread(
                dir.display().to_string(),
                format!("{what}: expected a data root holding `cards/` and `scripts/`"),
            ));
            return Err(diags);
        }
        for folder in DATA_FOLDERS {
            let sub = dir.join(folder);
            if !sub.is_dir() {
                diags.push(Diagnostic::unread(
                    sub.display().to_string(),
                    format!("missing folder: a data root must hold `{folder}/`"),
                ));
                continue;
            }
            collect_dir(&sub, folder, &mut files, &mut unread, &mut diags, 0);
        }
        if diags.is_empty() {
            Ok(DataSet {
                root: Some(dir.to_path_buf()),
                files,
                unread,
                shown: BTreeMap::new(),
            })
        } else {
            Err(diags)
        }
    }

    /// The path to show a user for a relative data path.
    pub fn display_path(&self, rel: &str) -> String {
        if let Some(shown) = self.shown.get(rel) {
            return shown.clone();
        }
        match &self.root {
            Some(root) => root.join(rel).display().to_string(),
            None => rel.to_string(),
        }
    }

    /// The contents of the file at `rel` (relative to the data root), if the
    /// set has it.
    pub fn get(&self, rel: &str) -> Option<&[u8]> {
        self.files.get(rel).map(|v| v.as_slice())
    }

    /// Writes every file under `dir`, creating folders as needed.
    /// A file whose path is not a plain data path is refused before any is
    /// written, so that nothing lands outside `dir`.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<usize> {
        if let Some(problem) = self.files.keys().find_map(|rel| data_path_problem(rel)) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                problem,
            ));
        }
        for (rel, bytes) in &self.files {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, bytes)?;
        }
        Ok(self.files.len())
    }

    /// A fingerprint of the whole data set (FNV-1a over paths and contents),
    /// written into game logs so a replay can tell it runs on other data.
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                h ^= *b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for (rel, bytes) in &self.files {
            eat(rel.as_bytes());
            eat(&[0]);
            eat(bytes);
            eat(&[0xff]);
        }
        h
    }
}

#[cfg(feature = "shipped-data")]
fn collect_embedded(dir: &Dir<'static>, prefix: &str, out: &mut BTreeMap<String, Vec<u8>>) {
    for f in dir.files() {
        let rel = format!("{prefix}/{}", f.path().display());
        out.insert(rel.replace('\\', "/"), f.contents().to_vec());
    }
    for d in dir.dirs() {
        collect_embedded(d, prefix, out);
    }
}

/// Reads every file under `dir` (names starting with `.` left out) through
/// the one user-file reader: a file that cannot be read or is refused (a
/// device, a FIFO, too large) goes into `unread` with the reason, and the
/// others are still read.
fn collect_dir(
    dir: &Path,
    rel: &str,
    out: &mut BTreeMap<String, Vec<u8>>,
    unread: &mut BTreeMap<String, String>,
    diags: &mut Diagnostics,
    depth: usize,
) {
    if depth > MAX_FOLDER_DEPTH {
        diags.push(Diagnostic::unread(
            dir.display().to_string(),
            format!("folders nested deeper than {MAX_FOLDER_DEPTH}: refused (a link to a parent folder?)"),
        ));
        return;
    }
    let entries = std::fs::read_dir(dir).and_then(|it| it.collect::<Result<Vec<_>, _>>());
    let mut entries = match entries {
        Ok(e) => e,
        Err(e) => {
            diags.push(Diagnostic::unread(
                dir.display().to_string(),
                format!("cannot read: {e}"),
            ));
            return;
        }
    };
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') {
            continue;
        }
        let path = e.path();
        let child = format!("{rel}/{name}");
        if path.is_dir() {
            collect_dir(&path, &child, out, unread, diags, depth + 1);
        } else {
            match crate::data::read_user_file(&path) {
                Ok(bytes) => {
                    out.insert(child, bytes);
                }
                Err(e) => {
                    unread.insert(child, e.reason());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_path_is_plain_and_under_cards_or_scripts() {
        for ok in ["cards/board.ron", "scripts/nixon/gambit.rhai"] {
            assert_eq!(data_path_problem(ok), None, "{ok}");
        }
        for bad in [
            "cards/../../victim.txt",
            "scripts/./x.rhai",
            "scripts//x.rhai",
            "scripts\\x.rhai",
            "cardsx/a.ron",
            "/etc/passwd",
            "cards",
        ] {
            assert!(data_path_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn a_set_with_a_path_that_climbs_out_writes_nothing() {
        let dir = tempfile::Builder::new()
            .prefix("wg-write-to-")
            .tempdir()
            .unwrap();
        let out = dir.path().join("out");
        let mut set = DataSet::default();
        set.files.insert("cards/a.ron".into(), b"()".to_vec());
        set.files
            .insert("cards/../../victim.txt".into(), b"x".to_vec());
        let err = set.write_to(&out).unwrap_err();
        assert!(err.to_string().contains("cards/../../victim.txt"), "{err}");
        assert!(!out.exists() && !dir.path().join("victim.txt").exists());
    }
}
