//! Helpers shared by the studio's tests (`mod common;`): a running
//! `watergate serve`, a small HTTP client, and a headless browser.
#![allow(dead_code)]

pub mod browser;
pub mod http;
pub mod server;
