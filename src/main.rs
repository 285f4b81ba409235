/// Counts heap allocations for `watergate bench` (one relaxed atomic add
/// per allocation; see `bench::CountingAlloc`).
#[global_allocator]
static ALLOCATOR: watergate::bench::CountingAlloc = watergate::bench::CountingAlloc;

fn main() -> std::process::ExitCode {
    watergate::cli::main()
}
