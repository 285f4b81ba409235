//! The built binary run as a user runs it, from a folder of the test's.

use super::temp::TempFolder;
use std::path::Path;
use std::process::{Command, Output};

/// `watergate ARGS` run in `dir`, its output captured.
pub fn watergate_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_watergate"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A fresh folder of this test run, `watergate-NAME-PID` in the temporary
/// folder (removed when dropped), holding `mydata/`: the shipped game exported, as a designer
/// starts.
pub fn exported_game(name: &str) -> TempFolder {
    let dir = TempFolder::new(&format!("watergate-{name}"));
    assert!(watergate_in(&dir, &["export", "mydata"]).status.success());
    dir
}
