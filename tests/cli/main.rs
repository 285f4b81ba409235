//! The command line and the terminal: the built binary as a user runs it, and
//! the application's front ends driven by scripted input. One test binary, one
//! module per suite (`cargo test --test cli sweep_cli::`). Folded from one
//! binary per file (issue 33).

#[path = "../common/mod.rs"]
mod common;

mod anywhere;
mod args_and_messages;
mod board_drawing;
mod board_warnings;
mod cards_json;
mod check_all_at_once;
mod cli;
mod cli_data;
mod cli_help;
mod compare_build;
mod hidden_choices;
mod hostile_files;
mod manners;
mod mined_puzzles;
mod outputs_safety;
mod play_session;
mod puzzle;
mod puzzle_cli;
mod replay_rules;
mod reproducible_failures;
mod script_errors;
mod sigterm;
mod sweep_cli;
mod terminal;
mod variants;
