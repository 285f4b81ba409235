//! The repository's own shape: the layers, the core's boundary, the docs'
//! links. One test binary, one module per suite (`cargo test --test repo
//! layers::`). Folded from one binary per file (issue 33).

mod core_boundary;
mod docs_links;
mod layers;
