//! Where the data files come from: the copy embedded in the binary (so
//! `watergate` works from any directory) or a directory a designer edits.
//! Either way the loader sees the same thing: relative paths and contents.

use crate::diag::{Diagnostic, Diagnostics};
#[cfg(feature = "shipped-data")]
use include_dir::{include_dir, Dir};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[cfg(feature = "shipped-data")]
static CARDS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/cards");
#[cfg(feature = "shipped-data")]
static SCRIPTS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/scripts");

/// The top-level folders of a data root.
pub const DATA_FOLDERS: [&str; 2] = ["cards", "scripts"];

/// A set of data files keyed by their path relative to the data root
/// (`cards/board.ron`, `scripts/nixon/howard_hunt.rhai`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataSet {
    /// The directory the files were read from; `None` for the embedded copy.
    pub root: Option<PathBuf>,
    pub files: BTreeMap<String, Vec<u8>>,
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
            DataSet { root: None, files }
        }
        #[cfg(not(feature = "shipped-data"))]
        DataSet::default()
    }

    /// Reads `dir/cards/**` and `dir/scripts/**`.
    pub fn from_dir(dir: &Path) -> Result<DataSet, Diagnostics> {
        let mut files = BTreeMap::new();
        let mut diags = Diagnostics::default();
        if !dir.is_dir() {
            diags.push(Diagnostic::file(
                dir.display().to_string(),
                "not a directory: expected a data root holding `cards/` and `scripts/`",
            ));
            return Err(diags);
        }
        for folder in DATA_FOLDERS {
            let sub = dir.join(folder);
            if !sub.is_dir() {
                diags.push(Diagnostic::file(
                    sub.display().to_string(),
                    format!("missing folder: a data root must hold `{folder}/`"),
                ));
                continue;
            }
            if let Err(e) = collect_dir(&sub, folder, &mut files) {
                diags.push(Diagnostic::file(
                    sub.display().to_string(),
                    format!("cannot read: {e}"),
                ));
            }
        }
        if diags.is_empty() {
            Ok(DataSet {
                root: Some(dir.to_path_buf()),
                files,
            })
        } else {
            Err(diags)
        }
    }

    /// The path to show a user for a relative data path.
    pub fn display_path(&self, rel: &str) -> String {
        match &self.root {
            Some(root) => root.join(rel).display().to_string(),
            None => rel.to_string(),
        }
    }

    pub fn get(&self, rel: &str) -> Option<&[u8]> {
        self.files.get(rel).map(|v| v.as_slice())
    }

    /// Writes every file under `dir`, creating folders as needed.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<usize> {
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

fn collect_dir(dir: &Path, rel: &str, out: &mut BTreeMap<String, Vec<u8>>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') {
            continue;
        }
        let path = e.path();
        let child = format!("{rel}/{name}");
        if path.is_dir() {
            collect_dir(&path, &child, out)?;
        } else {
            out.insert(child, std::fs::read(&path)?);
        }
    }
    Ok(())
}
