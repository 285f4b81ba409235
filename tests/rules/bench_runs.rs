//! The benchmark suite runs and prints every figure (the figures themselves
//! are recorded in BENCHMARKS.md, never asserted here).

#[test]
fn the_quick_bench_prints_every_figure() {
    let mut out = Vec::new();
    watergate::lab::bench::run(
        &mut out,
        &watergate::lab::bench::BenchConfig {
            quick: true,
            peak_memory_games: None,
            game: watergate::data::GameSource::shipped(),
        },
        &watergate::data::DataSet::embedded(),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    for needle in [
        "load + validate + compile",
        "random games per second, one core",
        "share of time inside rhai",
        "clone of a mid-action game state",
        "ISMCTS, one core",
        "ISMCTS with playouts to the end",
        "ISMCTS with tree reuse",
        "ISMCTS settling",
        "ISMCTS with reuse and settling",
        "ISMCTS root-parallel",
        "random games per second on ",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in:\n{text}");
    }
}
