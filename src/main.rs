//! The `hornbeam` command line: parses options into a typed configuration, calls the library,
//! prints. It holds no solving logic of its own.

mod cli;

fn main() {
    // Before anything else runs (or any thread starts): see `huge_pages`.
    cli::huge_pages::reexec();
    // Like other Unix tools, end quietly when the reader of our output goes away
    // (`hornbeam analyze F | head`); Rust's default would make `println!` panic.
    // SAFETY: setting a signal's disposition to the default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(cli::run());
}
