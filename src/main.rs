//! The `stratagem` command; all logic lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    stratagem::cli::main()
}
