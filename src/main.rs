/// Counts heap allocations for `watergate bench` (one relaxed atomic add
/// per allocation; see `lab::bench::CountingAlloc`).
#[global_allocator]
static ALLOCATOR: watergate::lab::bench::CountingAlloc = watergate::lab::bench::CountingAlloc;

fn main() -> std::process::ExitCode {
    watergate::app::cli::main()
}
