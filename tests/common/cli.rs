//! The built binary run as a user runs it, from a folder of the test's.

use std::path::{Path, PathBuf};
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
/// folder, holding `mydata/`: the shipped game exported, as a designer
/// starts.
pub fn exported_game(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("watergate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    assert!(watergate_in(&dir, &["export", "mydata"]).status.success());
    dir
}
