fn main() -> std::process::ExitCode {
    lab::run()
}
