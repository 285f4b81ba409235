//! The scenario format reference (docs/formats/scenario.md) stays true: its
//! whole-scenario examples load, play and meet their expectations, and it
//! names every field of the format.

use std::path::Path;
use watergate::formats::scenario::Scenario;

fn doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats/scenario.md"))
        .expect("the reference exists")
}

#[test]
fn whole_examples_run_and_meet_their_expectations() {
    let text = doc();
    let mut ran = 0;
    for block in text.split("```ron\n").skip(1) {
        let code = block.split("```").next().unwrap_or("");
        if !code
            .trim_start_matches(|c: char| c != 'S')
            .starts_with("Scenario(")
        {
            continue;
        }
        let scn = Scenario::from_text("docs example", code, std::env::temp_dir())
            .unwrap_or_else(|d| panic!("{d}\n{code}"));
        let r = scn
            .rules(&watergate::data::GameSource::shipped())
            .unwrap_or_else(|d| panic!("{d}"));
        let (_, failed) = scn.run(&r).unwrap_or_else(|d| panic!("{d}"));
        assert!(failed.is_empty(), "{failed}\n{code}");
        ran += 1;
    }
    assert!(ran >= 1, "no whole example found");
}

#[test]
fn every_field_is_documented() {
    let text = doc();
    // The fields as the parser knows them: an unknown field's error lists them.
    for (what, probe) in [
        ("Scenario", "Scenario(zzz: 1)"),
        ("Position", "Scenario(position: Some((zzz: 1)))"),
        ("Expect", "Scenario(expect: Some((zzz: 1)))"),
        (
            "ViewExpect",
            "Scenario(expect: Some((views: [(side: Editor, zzz: 1)])))",
        ),
        ("Edits", "Scenario(edits: Some((zzz: 1)))"),
        (
            "Puzzle",
            "Scenario(puzzle: Some((side: Editor, wins: true, zzz: 1)))",
        ),
    ] {
        let err = Scenario::from_text("probe", probe, std::env::temp_dir())
            .err()
            .unwrap_or_else(|| panic!("{what}: the probe parsed"))
            .to_string();
        let list = err
            .split("expected one of")
            .nth(1)
            .unwrap_or_else(|| panic!("{err}"));
        for field in list.split('`').skip(1).step_by(2) {
            assert!(
                text.contains(&format!("`{field}`")),
                "{what}.{field} is not in docs/formats/scenario.md"
            );
        }
    }
}
