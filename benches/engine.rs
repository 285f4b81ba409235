//! `cargo bench`: the same figures as `watergate bench` (see BENCHMARKS.md).

/// Counts heap allocations for the bench's allocation figures.
#[global_allocator]
static ALLOCATOR: watergate::lab::bench::CountingAlloc = watergate::lab::bench::CountingAlloc;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let cfg = watergate::lab::bench::BenchConfig {
        quick,
        peak_memory_games: None,
        game: watergate::data::GameSource::shipped(),
    };
    if let Err(e) = watergate::lab::bench::run(
        &mut std::io::stdout(),
        &cfg,
        &watergate::data::DataSet::embedded(),
    ) {
        eprintln!("bench failed: {e}");
        std::process::exit(1);
    }
}
