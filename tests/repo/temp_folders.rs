//! Tests leave nothing in the temporary folder: each makes its folders as
//! a `tempfile` folder or a `common::temp::TempFolder` (which stands on
//! it), removed when dropped, also when the test fails. A folder joined
//! onto the temporary folder by hand was left behind whenever a test
//! failed before removing it, or never removed at all: a suite run left
//! some fifty folders, and a developer's machine gathered thousands.

use std::path::{Path, PathBuf};

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for e in std::fs::read_dir(path).expect("a folder can be read") {
            rust_files(&e.expect("a folder entry").path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn no_test_makes_a_folder_by_hand_in_the_temporary_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for top in ["src", "tests", "crates"] {
        rust_files(&root.join(top), &mut files);
    }
    // Written in two pieces, so that this file does not name it.
    let by_hand = ["temp_dir()", ".join("].concat();
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file can be read");
        for (i, line) in text.lines().enumerate() {
            if line.contains(&by_hand) {
                let name = f.strip_prefix(root).unwrap_or(f).display().to_string();
                found.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "folders made by hand in the temporary folder (use tempfile, or common::temp::TempFolder in tests/):\n{}",
        found.join("\n")
    );
}
