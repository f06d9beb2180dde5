//! The `hornbeam` command line: parses options into a typed configuration, calls the library,
//! prints. It holds no solving logic of its own.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
