#![no_main]
//! Fuzz target: see `watergate::lab::fuzz::load_scenario`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    watergate::lab::fuzz::load_scenario(data);
});
