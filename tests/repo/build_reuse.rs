//! The Python wheel's build reuses what `cargo test --workspace` compiled
//! (python/Cargo.toml, "Features only, no code"). Cargo compiles a crate
//! again whenever the features asked of it differ, and a rebuilt serde
//! takes rhai and the engine's crates with it: about 100 s more for CI.
//! This test compares, crate by crate, the features `cargo tree` resolves
//! for the whole workspace (its tests included) and for the Python crate
//! alone, and names what python/Cargo.toml must ask for when they part.

use std::collections::{BTreeMap, BTreeSet};

/// Each package (`name vX.Y.Z`) with the features cargo turns on for it,
/// over every place it appears in the tree (host and target together).
fn resolved_features(args: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let mut all = vec!["--prefix", "none", "--format", "{p}|{f}"];
    all.extend_from_slice(args);
    let tree = super::cargo_tree(&all);
    let mut packages: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in tree.lines() {
        let Some((package, features)) = line.trim_end_matches(" (*)").split_once('|') else {
            continue;
        };
        // A path dependency prints its folder: the name and version are enough.
        let package = package.split(" (").next().unwrap_or(package).to_string();
        packages.entry(package).or_default().extend(
            features
                .split(',')
                .filter(|f| !f.is_empty())
                .map(str::to_string),
        );
    }
    packages
}

#[test]
fn the_python_module_builds_with_the_workspace_s_features() {
    let workspace = resolved_features(&["--workspace", "--edges", "normal,build,dev"]);
    let python = resolved_features(&["-p", "watergate-python", "--edges", "normal,build"]);
    assert!(
        python.keys().any(|p| p.starts_with("watergate-core ")),
        "the Python crate's tree has no engine in it: {python:?}"
    );
    let mut missing = Vec::new();
    for (package, features) in &python {
        let Some(in_workspace) = workspace.get(package) else {
            continue;
        };
        let more: Vec<&String> = in_workspace.difference(features).collect();
        if !more.is_empty() {
            missing.push(format!("{package}: {more:?}"));
        }
    }
    assert!(
        missing.is_empty(),
        "the wheel's build would compile these crates again, with fewer features than \
         `cargo test --workspace` did; ask for them in python/Cargo.toml (\"Features only, \
         no code\"):\n{}",
        missing.join("\n")
    );
}
