//! SIGTERM, as Slurm, Kubernetes, `timeout` and `kill` stop a job, stops a
//! long run as Ctrl-C does: the report of the games finished, marked
//! partial, then exit 130 (README, "Ctrl-C"). It once ended the process at
//! once, leaving an empty report behind.

use crate::manners::{stopped_by, SIGTERM};
use std::process::Output;
use std::time::Duration;

/// Runs `args`, and once it has played a while sends it SIGTERM.
fn terminated(args: &[&str]) -> Output {
    stopped_by(args, SIGTERM, Duration::from_millis(1200)).0
}

#[test]
fn sigterm_stops_a_simulation_with_a_partial_report_in_json() {
    let out = terminated(&["simulate", "--games", "100000000", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    assert_eq!(v["partial"], true);
    assert!(v["games_finished"].as_u64().unwrap() > 0);
}

#[test]
fn sigterm_stops_a_soak_with_a_partial_report_naming_it() {
    let out = terminated(&["soak", "--games", "100000000"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("PARTIAL: interrupted (SIGTERM) after "),
        "{text}"
    );
}
