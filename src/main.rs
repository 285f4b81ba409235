fn main() -> std::process::ExitCode {
    watergate::app::cli::main()
}
