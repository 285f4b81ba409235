//! The repository's own shape: the layers, the core's boundary, the docs'
//! links, the two builds that share their compiled crates. One test binary,
//! one module per suite (`cargo test --test repo layers::`). Folded from one
//! binary per file (issue 33).

mod build_reuse;
mod core_boundary;
mod docs_links;
mod layers;
