//! The repository's own shape: the layers, the core's boundary, the docs'
//! links, the two builds that share their compiled crates. One test binary,
//! one module per suite (`cargo test --test repo layers::`). Folded from one
//! binary per file (issue 33).

mod build_reuse;
mod core_boundary;
mod docs_links;
mod layers;
mod temp_folders;

/// `cargo tree --offline ARGS` of this workspace: what it printed, or the
/// test fails with cargo's complaint.
fn cargo_tree(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--offline"])
        .args(args)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
