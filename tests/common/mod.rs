//! Shared by the corpus tests: compare what a bad input produced with its
//! golden file, or rewrite the golden file under `BLESS=1`. Also the
//! studio's helpers: a running `watergate serve`, a small HTTP client and
//! a headless browser. Each test file uses only some of these.
#![allow(dead_code)]

use std::path::Path;

/// Whether `BLESS=1` asks to rewrite the golden files.
pub fn blessing() -> bool {
    std::env::var_os("BLESS").is_some()
}

/// Compares `got` with the golden file at `expected` (or writes it when
/// blessing); a mismatch is returned as a readable diff under `name`.
pub fn golden(name: &str, expected: &Path, got: &str) -> Option<String> {
    if blessing() {
        std::fs::write(expected, got).expect("the golden file can be written");
        return None;
    }
    let want = std::fs::read_to_string(expected).unwrap_or_default();
    (want != got).then(|| format!("{name}:\n--- expected\n{want}--- got\n{got}"))
}

pub mod browser;
pub mod cli;
pub mod http;
pub mod mirror;
pub mod server;
pub mod temp;

/// A whole game between random agents, as a log's text, and the number
/// of choices it records (Replay's tests open and scrub it).
pub fn logged_game(seed: u64) -> (String, usize) {
    use watergate::game::engine::Actor;
    use watergate::players::agent::Agent;
    let r = watergate::data::shipped();
    let mut lg = watergate::formats::log::GameLog::new_game(
        &r,
        seed,
        watergate::formats::log::players("random", "random"),
    );
    let mut s = watergate::game::state::State::new(&r, seed);
    let mut agents = [
        watergate::players::agent::random::RandomAgent::new(seed + 1),
        watergate::players::agent::random::RandomAgent::new(seed + 2),
    ];
    let mut options = Vec::new();
    while let Some(actor) = s.legal(&r, &mut options) {
        let c = match actor {
            Actor::Player(side) => agents[side.index()]
                .decide(&watergate::game::view::View::new(&r, &s, side), &options),
            Actor::Chance => options[0],
        };
        lg.record(&r, &s, c);
        s.apply(&r, c).unwrap();
    }
    lg.outcome = s.outcome();
    let n = lg.choices.len();
    (lg.to_text(), n)
}

/// Runs the built binary in `dir` with `stdin` as its input.
pub fn watergate_in(
    dir: &Path,
    args: &[impl AsRef<std::ffi::OsStr>],
    stdin: &str,
) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_watergate"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("the binary ends")
}
