//! Broken variant files and the exact messages they must produce, every
//! one pointing into the variant file (or the file it brings). Regenerate
//! with `BLESS=1 cargo test --test rules variant_errors::` and read the diff.

use crate::common;

use std::path::Path;
use watergate::data::variant::Variant;
use watergate::data::DataSet;

#[test]
fn broken_variants_give_exact_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/broken_variants");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 8);
    let mut mismatches = Vec::new();
    for case in cases {
        let got = match Variant::from_file(&case).and_then(|v| v.apply(&DataSet::embedded())) {
            // Never blessed into the golden file: a broken case must fail.
            Ok(_) => {
                mismatches.push(format!(
                    "{}: applied without error; a broken case must fail",
                    case.display()
                ));
                continue;
            }
            Err(d) => d.to_string(),
        };
        let got = got.replace(&format!("{}/", root.display()), "");
        mismatches.extend(common::golden(
            &case.display().to_string(),
            &case.with_extension("expected"),
            &got,
        ));
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
