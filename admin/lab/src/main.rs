//! `tengen-lab`: see the library ([`lab`]) for what it runs and its architecture invariant
//! (the lab depends on `admin`, never the reverse).

fn main() -> std::process::ExitCode {
    lab::run()
}
