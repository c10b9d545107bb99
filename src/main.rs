fn main() -> std::process::ExitCode {
    pairdbg::cli::main()
}
