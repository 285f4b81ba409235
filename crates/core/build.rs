//! The shipped card set and scenarios are embedded with `include_dir!`,
//! which cannot tell Cargo about a file added to those folders: without
//! this, a new puzzle under `scenarios/` (a mined set, say) would be missing
//! from a binary built incrementally until something else changed.
fn main() {
    for dir in ["../../cards", "../../scripts", "../../scenarios"] {
        println!("cargo:rerun-if-changed={dir}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
