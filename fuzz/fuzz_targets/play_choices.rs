#![no_main]
//! Fuzz target: see `watergate::fuzz::play_choices`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    watergate::fuzz::play_choices(data);
});
