//! The folders are the layers (ARCHITECTURE.md, "Layers"): every module of
//! the library belongs to one layer, and a layer uses only the layers its
//! row of the table names. This test reads the table from ARCHITECTURE.md
//! itself, so the map and the check cannot drift apart, then reads every
//! path into the crate (`crate::x::…`, and `super::` chains that climb to
//! the crate root, and `watergate_core::x::…` from the crates above the
//! core) in every file of the workspace's crates. Cargo enforces
//! the edges between crates; this test is for the layers inside one
//! (`diag`, `game`, `script` and `data` share the core crate), and for the
//! names the crates above the core give the layers below (`crate::game`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One row of the layer table: a top-level module and what it may use.
#[derive(Debug)]
struct Layer {
    module: String,
    may_use: BTreeSet<String>,
}

/// Reads the "Layers" table: `| layer | module | folder | may use |`.
fn layer_table(architecture: &str) -> Vec<Layer> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in architecture.lines() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if cells == ["layer", "module", "folder", "may use"] {
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        if !line.trim_start().starts_with('|') {
            break;
        }
        if cells.iter().all(|c| c.chars().all(|ch| ch == '-')) {
            continue;
        }
        assert_eq!(cells.len(), 4, "a layer row has four cells: {line}");
        rows.push(Layer {
            module: cells[1].trim_matches('`').to_string(),
            may_use: cells[3]
                .split(',')
                .map(|m| m.trim().trim_matches('`').to_string())
                .filter(|m| !m.is_empty() && m != "—")
                .collect(),
        });
    }
    rows
}

/// The module path of a file as if the workspace were one crate (`game/engine/vm.rs` →
/// `["game", "engine", "vm"]`; a `mod.rs` is its folder).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The name after each `prefix` in `code` (`crate::game::x` → `game`), but
/// where the prefix ends a longer name (a letter, a digit or one of
/// `joins` just before it).
fn first_segments(code: &str, prefix: &str, joins: &[char]) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = &rest[..i];
        let after = &rest[i + prefix.len()..];
        if !before.ends_with(|c: char| c.is_alphanumeric() || joins.contains(&c)) {
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
        rest = after;
    }
    found
}

/// Every top-level module that `text` (the file at module path `me`)
/// names, with the line it is named on. Comments are skipped.
fn uses(me: &[String], text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        // `$crate::` in a macro, or part of a longer name (`watergate_crate::`).
        for name in first_segments(code, "crate::", &['_', '$']) {
            found.push((n + 1, name));
        }
        // The core crate by its own name, from a crate above it: Cargo
        // allows any of its modules, the table does not.
        for name in first_segments(code, "watergate_core::", &['_']) {
            found.push((n + 1, name));
        }
        let mut rest = code;
        while let Some(i) = rest.find("super::") {
            let mut climb = rest[i..].to_string();
            let mut depth = me.len();
            while let Some(r) = climb.strip_prefix("super::") {
                depth = depth.saturating_sub(1);
                climb = r.to_string();
            }
            if depth == 0 {
                let name: String = climb
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.push((n + 1, name));
                }
            }
            rest = &rest[i + "super::".len()..];
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("src can be read")
        .map(|e| e.expect("a folder entry").path())
        .collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            rust_files(&e, out);
        } else if e.extension().is_some_and(|x| x == "rs") {
            out.push(e);
        }
    }
}

/// Every edge the table does not allow, as `file:line: a uses b`. A file
/// is its module path as if the workspace were one crate (`game/state.rs`,
/// `formats/log.rs`), the path it is shown by, and its text.
fn violations(table: &[Layer], files: &[(PathBuf, String, String)]) -> Vec<String> {
    let by_module: BTreeMap<&str, &Layer> = table.iter().map(|l| (l.module.as_str(), l)).collect();
    let mut bad = Vec::new();
    for (rel, shown, text) in files {
        let me = module_path(rel);
        // The crate root only declares the layers; the binary is an application.
        let Some(top) = me.first().filter(|t| *t != "lib" && *t != "main") else {
            continue;
        };
        let Some(layer) = by_module.get(top.as_str()) else {
            bad.push(format!(
                "{shown}: module `{top}` is in no row of ARCHITECTURE.md's layer table"
            ));
            continue;
        };
        for (line, used) in uses(&me, text) {
            let allowed = used == *top
                || layer.may_use.contains(&used)
                || layer.may_use.contains("every layer");
            if !allowed && by_module.contains_key(used.as_str()) {
                bad.push(format!(
                    "{shown}:{line}: `{top}` uses `{used}`, which its row does not allow"
                ));
            }
        }
    }
    bad
}

fn architecture() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md is readable")
}

#[test]
fn every_import_follows_the_layer_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = layer_table(&architecture());
    assert!(table.len() >= 7, "the layer table is found: {table:?}");
    // Where each crate's files sit in the one-crate module tree: the core
    // holds four layers at its root, the others one layer each.
    let crates = [
        ("crates/core/src", ""),
        ("crates/formats/src", "formats"),
        ("crates/players/src", "players"),
        ("crates/lab/src", "lab"),
        ("src", ""),
    ];
    let mut files = Vec::new();
    for (dir, layer) in crates {
        let mut paths = Vec::new();
        rust_files(&root.join(dir), &mut paths);
        for p in paths {
            let inside = p.strip_prefix(root.join(dir)).unwrap().to_path_buf();
            let rel = if layer.is_empty() {
                inside
            } else if inside == Path::new("lib.rs") {
                Path::new(layer).join("mod.rs")
            } else {
                Path::new(layer).join(inside)
            };
            let shown = p.strip_prefix(root).unwrap().display().to_string();
            let text = std::fs::read_to_string(&p).expect("a source file is readable");
            files.push((rel, shown, text));
        }
    }
    assert!(files.len() > 50, "the source files are found");
    let bad = violations(&table, &files);
    assert!(
        bad.is_empty(),
        "edges the layer table does not allow:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_layer_names_only_layers_below_it() {
    // The table is an order: a row may use only rows above it.
    let table = layer_table(&architecture());
    let mut seen = BTreeSet::new();
    for l in &table {
        for u in &l.may_use {
            assert!(
                u == "every layer" || seen.contains(u),
                "`{}` may use `{u}`, which is not a layer below it",
                l.module
            );
        }
        seen.insert(l.module.clone());
    }
}

#[test]
fn an_upward_edge_is_caught() {
    let table = layer_table(&architecture());
    let files = vec![
        (
            PathBuf::from("game/engine/vm.rs"),
            "crates/core/src/game/engine/vm.rs".to_string(),
            "use crate::game::state::State;\nuse crate::app::cli::Cli;\n".to_string(),
        ),
        (
            PathBuf::from("players/agent/mod.rs"),
            "crates/players/src/agent/mod.rs".to_string(),
            "fn f() { super::super::lab::sim::run() } // crate::app in a comment\n".to_string(),
        ),
        (
            PathBuf::from("players/agent/random.rs"),
            "crates/players/src/agent/random.rs".to_string(),
            "use watergate_core::game::view::View;\nuse watergate_core::data::shipped;\n"
                .to_string(),
        ),
        (
            PathBuf::from("server/mod.rs"),
            "src/server/mod.rs".to_string(),
            String::new(),
        ),
    ];
    let bad = violations(&table, &files);
    assert_eq!(
        bad,
        [
            "crates/core/src/game/engine/vm.rs:2: `game` uses `app`, which its row does not allow",
            "crates/players/src/agent/mod.rs:1: `players` uses `lab`, which its row does not allow",
            "crates/players/src/agent/random.rs:2: `players` uses `data`, which its row does not allow",
            "src/server/mod.rs: module `server` is in no row of ARCHITECTURE.md's layer table",
        ]
    );
}

#[test]
fn every_crate_depends_only_on_the_crates_its_layer_may_use() {
    // Cargo checks that a crate uses only what it names; this checks that
    // it names only what its row allows (a dependency never used still
    // pulls a crate and its dependencies into every user's build).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = layer_table(&architecture());
    let core_layers = ["diag", "game", "script", "data"];
    let allows = |layer: &str, dependency: &str| {
        let row = table
            .iter()
            .find(|l| l.module == layer)
            .unwrap_or_else(|| panic!("no row for `{layer}` in the layer table"));
        match dependency {
            "watergate-core" => core_layers.iter().any(|m| row.may_use.contains(*m)),
            other => row
                .may_use
                .contains(other.strip_prefix("watergate-").unwrap_or(other)),
        }
    };
    let mut bad = Vec::new();
    for (dir, layer) in [
        ("crates/formats", "formats"),
        ("crates/players", "players"),
        ("crates/lab", "lab"),
    ] {
        let manifest = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap();
        let mut section = "";
        for line in manifest.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                section = line;
                continue;
            }
            if section != "[dependencies]" {
                continue;
            }
            let name = line.split(['.', '=', ' ']).next().unwrap_or_default();
            if name.starts_with("watergate-") && !allows(layer, name) {
                bad.push(format!(
                    "{dir}/Cargo.toml: `{layer}` depends on {name}, which its row does not allow"
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
