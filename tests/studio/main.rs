//! The studio (`watergate serve`) over HTTP and in a real browser. One test
//! binary, one module per suite (`cargo test --test studio studio_play::`).
//! Folded from one binary per file (issue 33).

#[path = "../common/mod.rs"]
mod common;

mod browser_pages;
mod click_play;
mod howto;
mod screenshot;
mod studio_browser_play;
mod studio_hostile;
mod studio_load;
mod studio_pages;
mod studio_play;
mod studio_secrets;
mod table_layout;
mod workbench;
