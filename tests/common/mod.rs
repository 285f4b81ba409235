//! Shared by the corpus tests: compare what a bad input produced with its
//! golden file, or rewrite the golden file under `BLESS=1`. Also the
//! studio's helpers: a running `watergate serve`, a small HTTP client and
//! a headless browser. Each test file uses only some of these.
#![allow(dead_code)]

use std::path::Path;

/// Whether `BLESS=1` asks to rewrite the golden files.
pub fn blessing() -> bool {
    std::env::var_os("BLESS").is_some()
}

/// Compares `got` with the golden file at `expected` (or writes it when
/// blessing); a mismatch is returned as a readable diff under `name`.
pub fn golden(name: &str, expected: &Path, got: &str) -> Option<String> {
    if blessing() {
        std::fs::write(expected, got).expect("the golden file can be written");
        return None;
    }
    let want = std::fs::read_to_string(expected).unwrap_or_default();
    (want != got).then(|| format!("{name}:\n--- expected\n{want}--- got\n{got}"))
}

pub mod browser;
pub mod http;
pub mod mirror;
pub mod server;
