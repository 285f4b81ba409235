//! The rules core stands on its own: it builds without the command line's
//! crates, reads no clock and keeps no global counters (ARCHITECTURE.md,
//! "Invariants"). A game is a function of its data, seed and choices.

use std::path::Path;
use std::process::Command;

/// The rules core and the scripting host it calls (the two lowest layers
/// above the foundation, ARCHITECTURE.md "Layers").
const CORE: &[&str] = &["src/game", "src/script"];

fn rust_files(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .expect("a core folder can be read")
            .map(|e| e.expect("a folder entry").path())
            .collect();
        entries.sort();
        for e in entries {
            rust_files(&e, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn the_core_reads_no_clock_and_keeps_no_global_counters() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for c in CORE {
        rust_files(&root.join(c), &mut files);
    }
    assert!(files.len() > 10, "the core's files are found");
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a core file can be read");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for bad in ["Instant", "SystemTime", "static mut", "Atomic"] {
                if code.contains(bad) {
                    found.push(format!(
                        "{}:{}: `{bad}`: {}",
                        f.strip_prefix(root).unwrap_or(f).display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_library_without_default_features_needs_none_of_the_cli_crates() {
    let out = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "tree",
            "--offline",
            "--no-default-features",
            "--edges",
            "normal",
            "--prefix",
            "none",
        ])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for needed in ["serde", "ron", "rhai", "rand", "rand_pcg", "thiserror"] {
        assert!(names.contains(&needed), "the core uses {needed}: {tree}");
    }
    for cli in ["clap", "indicatif", "plotters", "include_dir"] {
        assert!(
            !names.contains(&cli),
            "`{cli}` is in the core's dependencies:\n{tree}"
        );
    }
}

/// The dependency list is not enough: a module that uses a CLI crate
/// without its feature gate only shows when the library is compiled alone.
/// `cargo check` in a target folder of its own (no lock on the one this
/// test runs from); about a minute the first time, seconds after.
#[test]
fn the_library_compiles_without_default_features() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO"))
        .current_dir(root)
        .args([
            "check",
            "--offline",
            "--lib",
            "--no-default-features",
            "--quiet",
        ])
        .arg("--target-dir")
        .arg(root.join("target").join("core-only"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "the core does not compile on its own:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
