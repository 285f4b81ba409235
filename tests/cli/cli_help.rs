//! Help (issue 12): `watergate help <command>` describes every argument,
//! shows what a value is and its default, the common flags have their
//! short forms, and bad numbers are refused saying what is expected.

use clap::CommandFactory;
use std::process::Command;

fn watergate(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The value names arguments may use: each says what the value is.
const VALUE_NAMES: &[&str] = &[
    "FILE",
    "DIR",
    "N",
    "K",
    "SEED",
    "AGENT",
    "SIDE",
    "I/N",
    "HALF_WIDTH",
    "FILE.svg",
    "FILE|base",
    "shipped|DIR|FILE",
];

#[test]
fn every_argument_of_every_command_is_described_with_its_default() {
    let cli = watergate::app::cli::Cli::command();
    let mut problems = Vec::new();
    for sub in cli.get_subcommands() {
        let name = sub.get_name();
        let out = watergate(&["help", name]);
        assert!(out.status.success(), "watergate help {name}");
        let page = String::from_utf8(out.stdout).unwrap();
        for arg in sub.get_arguments() {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            let what = format!("`watergate {name}` argument `{id}`");
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            if help.trim().is_empty() {
                problems.push(format!("{what} has no help text"));
                continue;
            }
            if !page.contains(&help) {
                problems.push(format!(
                    "{what}: `watergate help {name}` does not show its help"
                ));
            }
            let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values())
                && !matches!(arg.get_action(), clap::ArgAction::SetTrue);
            if !takes_value {
                continue;
            }
            for v in arg.get_value_names().unwrap_or_default() {
                if !VALUE_NAMES.contains(&v.as_str()) {
                    problems.push(format!(
                        "{what}: value name `{v}` is not one of {VALUE_NAMES:?}"
                    ));
                }
            }
            let optional = !arg.is_required_set() && !arg.is_positional();
            let shows_default = !arg.get_default_values().is_empty()
                || help.contains("[default:")
                || help.starts_with("Also");
            if optional && !shows_default {
                problems.push(format!(
                    "{what} takes a value but shows no default (`[default: …]`, or help starting \"Also\" for an extra output)"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn common_flags_have_their_short_forms() {
    let cli = watergate::app::cli::Cli::command();
    for sub in cli.get_subcommands() {
        for arg in sub.get_arguments() {
            let want = match arg.get_long() {
                Some("games") => Some('n'),
                Some("seed") => Some('s'),
                Some("threads") => Some('j'),
                _ => None,
            };
            if want.is_some() {
                assert_eq!(
                    arg.get_short(),
                    want,
                    "`watergate {} --{}`",
                    sub.get_name(),
                    arg.get_long().unwrap()
                );
            }
        }
    }
    // -o names the output where a command has one besides its main output.
    let save = watergate::app::cli::Cli::command()
        .find_subcommand("scenario")
        .and_then(|s| {
            s.get_arguments()
                .find(|a| a.get_short() == Some('o'))
                .cloned()
        })
        .expect("scenario -o");
    assert_eq!(save.get_long(), Some("save"));
}

#[test]
fn bad_numbers_are_refused_saying_what_is_expected() {
    for (args, expected) in [
        (
            &["simulate", "--threads", "0"][..],
            "must be at least 1 thread",
        ),
        (&["soak", "-j", "0"], "must be at least 1 thread"),
        (&["simulate", "--games", "0"], "must be at least 1"),
        (&["soak", "-n", "0"], "must be at least 1"),
        (
            &["simulate", "--seed", "-1"],
            "expected a seed: a whole number from 0",
        ),
        (
            &["play", "-s", "-7"],
            "expected a seed: a whole number from 0",
        ),
        (&["soak", "--seed", "1e3"], "expected a seed"),
        (
            &["solve", "x.ron", "--depth", "0"],
            "must be at least 1 decision",
        ),
        (
            &["solve", "x.ron", "--nodes", "none"],
            "expected a whole number of at least 1",
        ),
        (&["bench", "--peak-memory-games", "0"], "must be at least 1"),
    ] {
        let out = watergate(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}
