#![no_main]
//! Fuzz target: see `watergate::lab::fuzz::load_variant`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    watergate::lab::fuzz::load_variant(data);
});
