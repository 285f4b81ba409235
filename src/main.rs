fn main() -> std::process::ExitCode {
    watergate::cli::main()
}
