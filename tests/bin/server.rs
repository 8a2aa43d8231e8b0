fn main() -> std::process::ExitCode {
    admin::cli::run()
}
