//! The studio's pages (`assets/`) and the scenarios it offers are embedded
//! with `include_dir!`, which cannot tell Cargo about a file added to those
//! folders: without this, a new page module or puzzle would be missing from
//! a binary built incrementally until something else changed.
fn main() {
    for dir in ["assets", "scenarios"] {
        println!("cargo:rerun-if-changed={dir}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
