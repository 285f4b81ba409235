#![no_main]
//! Fuzz target: see `watergate::lab::fuzz::play_choices`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    watergate::lab::fuzz::play_choices(data);
});
