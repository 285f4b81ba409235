//! The engine, the rules, the data and the players through the library
//! crates alone: one test binary, one module per suite (`cargo test --test
//! rules golden_games::`). Folded from one binary per file (issue 33).

#[path = "../common/mod.rs"]
mod common;

mod agents;
mod asked_in_vain;
mod bench_runs;
mod board_d5;
mod board_walk;
mod by_place;
mod explicit_deals;
mod format_doc;
mod fuzz_corpus;
mod golden_games;
mod loader;
mod narration_hidden;
mod observation;
mod perft;
mod random_games;
mod scenario_errors;
mod scripts;
mod setup;
mod solver;
mod variant_errors;
