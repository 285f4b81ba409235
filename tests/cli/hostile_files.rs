//! Files no loader should read (issue 41): in a copy of the shipped data, a
//! card file that is a symbolic link to `/dev/zero` (read forever, memory
//! growing without end), a FIFO (opening it blocks until a writer comes)
//! and a 5 MiB file. `watergate check --data` must refuse each by name,
//! report the copy's other problems in the same run, and end promptly
//! with exit 2.
#![cfg(unix)]

use crate::common::temp::TempFolder;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Longer than any honest `check` takes on a debug build, far shorter than
/// reading `/dev/zero` until memory runs out.
const PROMPTLY: Duration = Duration::from_secs(60);

/// A fresh folder for one test.
fn temp_dir(name: &str) -> TempFolder {
    TempFolder::new(&format!("watergate-hostile-{name}"))
}

/// Runs the binary in `cwd`; a run that has not ended after [`PROMPTLY`] is
/// killed and fails the test (a loader reading a device or waiting on a FIFO).
fn watergate(args: &[&str], cwd: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    loop {
        if child
            .try_wait()
            .expect("the child can be waited on")
            .is_some()
        {
            return child.wait_with_output().expect("the binary's output");
        }
        if start.elapsed() > PROMPTLY {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`watergate {}` still running after {PROMPTLY:?}",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The shipped data exported to `dir/data`, with the first three Nixon
/// card files replaced by a link to `/dev/zero`, a FIFO and a 5 MiB file,
/// and one Editor card given a bad value. Returns the four relative paths.
fn hostile_copy(dir: &Path) -> [String; 4] {
    let out = watergate(&["export", "data"], dir);
    assert!(out.status.success(), "export: {out:?}");
    let nixon = dir.join("data/cards/nixon");
    let mut names: Vec<String> = std::fs::read_dir(&nixon)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    names.sort();
    let (zero, fifo, large) = (&names[0], &names[1], &names[2]);

    std::fs::remove_file(nixon.join(zero)).unwrap();
    std::os::unix::fs::symlink("/dev/zero", nixon.join(zero)).unwrap();

    std::fs::remove_file(nixon.join(fifo)).unwrap();
    let made = Command::new("mkfifo")
        .arg(nixon.join(fifo))
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo failed");

    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(nixon.join(large))
        .unwrap();
    f.set_len(5 * 1024 * 1024).unwrap();

    let editor = dir.join("data/cards/editor");
    let mut cards: Vec<PathBuf> = std::fs::read_dir(&editor)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    cards.sort();
    let text = std::fs::read_to_string(&cards[0]).unwrap();
    assert!(text.contains("value: "), "{}", cards[0].display());
    let bad = text.replacen("value: ", "value: -", 1);
    std::fs::write(&cards[0], bad).unwrap();
    let bad_card = format!(
        "data/cards/editor/{}",
        cards[0].file_name().unwrap().to_string_lossy()
    );
    [
        format!("data/cards/nixon/{zero}"),
        format!("data/cards/nixon/{fifo}"),
        format!("data/cards/nixon/{large}"),
        bad_card,
    ]
}

#[test]
fn check_refuses_a_device_a_fifo_and_a_large_file_and_reports_the_rest() {
    let dir = temp_dir("check");
    let [zero, fifo, large, bad_card] = hostile_copy(&dir);
    let out = watergate(&["check", "--data", "data"], &dir);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{zero}: not a regular file (a device, FIFO or folder): refused"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{fifo}: not a regular file (a device, FIFO or folder): refused"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{large}: 5242880 bytes: larger than the 4 MiB a file may hold: refused"
        )),
        "{err}"
    );
    // The other problem of the same copy, in the same run, at its place.
    assert!(
        err.lines().any(|l| l.starts_with(&format!("{bad_card}:"))
            && l.split(':')
                .nth(1)
                .is_some_and(|n| n.parse::<usize>().is_ok())),
        "{err}"
    );
    // A refused file has no text: no fake `1:1` position.
    assert!(!err.contains(&format!("{zero}:1:1")), "{err}");
}

#[test]
fn every_loader_refuses_them() {
    // `cards --data` and a scenario naming the copy load the same way.
    let dir = temp_dir("loaders");
    let [zero, ..] = hostile_copy(&dir);
    let out = watergate(&["cards", "--data", "data"], &dir);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{zero}: not a regular file")),
        "{err}"
    );

    // A scenario file that is itself a FIFO, and a merge input that is a
    // link to `/dev/zero`.
    let made = Command::new("mkfifo")
        .arg(dir.join("fifo.ron"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let out = watergate(&["scenario", "fifo.ron"], &dir);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("fifo.ron: not a regular file"), "{err}");

    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.json")).unwrap();
    let out = watergate(&["merge", "zero.json", "zero.json"], &dir);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("zero.json is not a regular file"), "{err}");
}
