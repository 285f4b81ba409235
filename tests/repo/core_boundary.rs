//! The rules core stands on its own: the `watergate-core` crate builds
//! alone, depends on exactly the crates it is expected to, reads no clock,
//! file or environment, prints nothing, starts no thread and keeps no
//! global counters (ARCHITECTURE.md, "Invariants"). A game is a function
//! of its data, seed and choices.

use std::path::Path;
use std::process::Command;

/// The rules core and the scripting host it calls (the two lowest layers
/// above the foundation, ARCHITECTURE.md "Layers").
const CORE: &[&str] = &["crates/core/src/game", "crates/core/src/script"];

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

/// What the core must not name: a clock, global state, a file, the
/// terminal, the environment, a thread, the network, a process.
const FORBIDDEN: &[&str] = &[
    "Instant",
    "SystemTime",
    "static mut",
    "Atomic",
    "OnceLock",
    "LazyLock",
    "Mutex",
    "thread_local!",
    "std::fs",
    "std::io",
    "std::env",
    "std::thread",
    "std::net",
    "std::process",
    "print!",
    "println!",
    "eprint",
    "dbg!",
];

/// The three places that hold state, and why none is a global: the
/// builder stack of the script running on this thread, pushed and popped
/// around one run; a card context's own keep, the rhai scope it last ran
/// in (owned by the context, empty in a clone); the script host's record
/// of the choices its scripts' runs built that show what the rules hide
/// (owned by the host, read only by `check`'s warnings, never by a game).
const ALLOWED: &[(&str, &str)] = &[
    ("crates/core/src/script/api.rs", "thread_local!"),
    ("crates/core/src/game/host.rs", "Mutex"),
    ("crates/core/src/script/mod.rs", "Mutex"),
];

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
            let file = f.strip_prefix(root).unwrap_or(f).to_string_lossy();
            for &bad in FORBIDDEN {
                if code.contains(bad) && !ALLOWED.contains(&(file.as_ref(), bad)) {
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

/// The core's direct dependencies, without its optional `shipped-data`
/// (which adds `include_dir`). A new one is a decision: add it here, with
/// its reason in Cargo.toml.
const CORE_DEPENDENCIES: &[&str] = &[
    "rand",
    "rand_pcg",
    "rhai",
    "ron",
    "serde",
    "smallvec",
    "thiserror",
];

/// `cargo tree` of the core crate alone: its direct normal dependencies.
fn core_dependencies(features: &[&str]) -> Vec<String> {
    let mut args = vec![
        "-p",
        "watergate-core",
        "--edges",
        "normal",
        "--depth",
        "1",
        "--prefix",
        "none",
    ];
    args.extend_from_slice(features);
    let tree = super::cargo_tree(&args);
    let mut names: Vec<String> = tree
        .lines()
        .skip(1) // the core itself
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn the_core_depends_on_exactly_the_crates_it_expects() {
    assert_eq!(core_dependencies(&[]), CORE_DEPENDENCIES);
    let mut shipped: Vec<&str> = CORE_DEPENDENCIES.to_vec();
    shipped.push("include_dir");
    shipped.sort();
    assert_eq!(core_dependencies(&["--features", "shipped-data"]), shipped);
}

/// The dependency list is not enough: the core compiled alone, without
/// the features the application turns on (`cargo check` in a target
/// folder of its own, no lock on the one this test runs from; about a
/// minute the first time, seconds after).
#[test]
fn the_core_crate_compiles_on_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO"))
        .current_dir(root)
        .args([
            "check",
            "--offline",
            "-p",
            "watergate-core",
            "--lib",
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
