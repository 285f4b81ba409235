//! Scenario files against a corpus of broken ones: each case
//! `tests/broken_scenarios/<case>.ron` is parsed, its start state built, its
//! choices played and its expectations checked; the first stage that fails
//! must give exactly the diagnostics in `<case>.expected` (for the last
//! stage: the failed expectations). Paths are written relative to the crate
//! root (`tests/broken_scenarios/<case>.ron:3:5: …`), so the expected files
//! do not depend on where the repository is checked out.
//!
//! Regenerate with `BLESS=1 cargo test --test rules scenario_errors::`, then read the
//! diff: every message must say where, what is wrong and what was expected.

use crate::common;

use std::path::Path;
use watergate::diag::Diagnostics;
use watergate::formats::scenario::Scenario;
use watergate::game::rules::Rules;

const CORPUS: &str = "tests/broken_scenarios";
/// What a case that loads, plays and meets its expectations gives: never
/// acceptable in this corpus.
const NO_ERROR: &str = "ran without error\n";

/// The diagnostics with paths under the crate root made relative to it.
fn relative(mut d: Diagnostics, root: &Path) -> String {
    let prefix = format!("{}{}", root.display(), std::path::MAIN_SEPARATOR);
    for diag in d.0.iter_mut() {
        if let Some(rest) = diag.path.strip_prefix(&prefix) {
            diag.path = rest.replace(std::path::MAIN_SEPARATOR, "/");
        }
    }
    d.to_string()
}

/// Parse, start, play, check: the diagnostics of the first stage that fails.
fn run(path: &Path, shipped: &Rules) -> Result<(), Diagnostics> {
    let scn = Scenario::from_file(path)?;
    let own;
    let rules: &Rules = if scn.has_own_rules() {
        own = scn.rules(&watergate::data::GameSource::shipped())?;
        &own
    } else {
        shipped
    };
    let mut s = scn.start(rules)?;
    let failures = scn.play_and_check(rules, &mut s)?;
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

#[test]
fn broken_scenarios_give_exact_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join(CORPUS);
    let rules = watergate::data::shipped();
    let mut cases: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 25, "only {} cases", cases.len());
    let mut problems = Vec::new();
    for case in &cases {
        let name = case.file_stem().unwrap().to_string_lossy().to_string();
        let got = match run(case, &rules) {
            Ok(()) => NO_ERROR.to_string(),
            Err(d) => relative(d, root),
        };
        let corpus_prefix = format!("{CORPUS}/");
        if got == NO_ERROR {
            problems.push(format!(
                "{name}: ran without error; a broken case must fail"
            ));
        } else if let Some(line) = got.lines().find(|l| !l.starts_with(&corpus_prefix)) {
            problems.push(format!("{name}: a diagnostic outside the corpus: {line}"));
        }
        problems.extend(common::golden(
            &name,
            &case.with_extension("expected"),
            &got,
        ));
    }
    // Every expected file belongs to a case.
    for e in std::fs::read_dir(&corpus).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|e| e == "expected") && !p.with_extension("ron").exists() {
            problems.push(format!("{}: no case for this expected file", p.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every diagnostic points inside its file: a line and column that exist.
#[test]
fn broken_scenario_positions_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = watergate::data::shipped();
    let mut cases: Vec<_> = std::fs::read_dir(root.join(CORPUS))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    cases.sort();
    for case in cases {
        let Err(d) = run(&case, &rules) else { continue };
        let bytes = std::fs::read(&case).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().collect();
        for diag in d.iter() {
            if text.is_empty() {
                assert_eq!((diag.line, diag.col), (1, 1), "{diag}");
                continue;
            }
            assert!(
                diag.line >= 1 && diag.line <= lines.len().max(1),
                "{diag}: line out of the file"
            );
            let width = lines.get(diag.line - 1).map_or(0, |l| l.chars().count());
            assert!(
                diag.col >= 1 && diag.col <= width + 1,
                "{diag}: column out of the line"
            );
        }
    }
}
