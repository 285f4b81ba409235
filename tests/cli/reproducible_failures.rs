//! A soak failure is saved as a scenario file that reproduces it: the file
//! names the `--data` folder and the `--variant` the run played, so that
//! `watergate scenario FILE` loads the very game that failed, and a second
//! failure never replaces the first one's file (it takes a free name, and
//! the message says which).

use crate::common::watergate_in;
use crate::script_errors::variant_with_a_runaway_script;
use std::path::Path;
use std::process::Output;
use watergate::data::GameSource;
use watergate::formats::scenario::Scenario;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn soak(dir: &Path, game: &[&str]) -> Output {
    let mut args = vec!["-q", "soak", "--games", "50", "--threads", "2"];
    args.extend_from_slice(game);
    let out = watergate_in(dir, &args, "");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    out
}

/// The fingerprint of the game a scenario file loads, with no flags.
fn game_of(file: &Path) -> u64 {
    let scn = Scenario::from_file(file).unwrap_or_else(|d| panic!("{d}"));
    scn.rules(&GameSource::default())
        .unwrap_or_else(|d| panic!("{d}"))
        .fingerprint
}

#[test]
fn a_soak_failure_on_a_variant_loads_on_that_variant() {
    let dir = variant_with_a_runaway_script("variant");
    let out = soak(&dir, &["--variant", "v/loopy.ron"]);
    let err = stderr(&out);
    assert!(
        err.contains(
            "is saved in soak-failure.ron (`watergate scenario soak-failure.ron` loads it"
        ),
        "{err}"
    );
    let file = dir.join("soak-failure.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("variant: \"v/loopy.ron\""), "{text}");
    let played = GameSource {
        data: None,
        variant: Some(dir.join("v/loopy.ron")),
    };
    assert_eq!(game_of(&file), played.rules().unwrap().fingerprint);
    // And the command it names loads it there.
    let out = watergate_in(&dir, &["scenario", "soak-failure.ron"], "");
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_soak_failure_on_a_data_folder_loads_on_that_folder() {
    let dir = variant_with_a_runaway_script("data");
    assert!(
        watergate_in(&dir, &["export", "--variant", "v/loopy.ron", "b12"], "")
            .status
            .success()
    );
    soak(&dir, &["--data", "b12"]);
    let file = dir.join("soak-failure.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("data: \"b12\""), "{text}");
    let played = GameSource {
        data: Some(dir.join("b12")),
        variant: None,
    };
    assert_eq!(game_of(&file), played.rules().unwrap().fingerprint);
}

#[test]
fn a_second_soak_failure_keeps_the_first_ones_file() {
    let dir = variant_with_a_runaway_script("twice");
    std::fs::write(dir.join("soak-failure.ron"), "an earlier failure").unwrap();
    let out = soak(&dir, &["--variant", "v/loopy.ron"]);
    let err = stderr(&out);
    assert!(err.contains("is saved in soak-failure-2.ron"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("soak-failure.ron")).unwrap(),
        "an earlier failure"
    );
    assert!(dir.join("soak-failure-2.ron").exists());
}
