//! The `hornbeam` binary: Hornbeam's command line ([`hornbeam::cli`]) as it ships, without
//! analyses of a user's.

fn main() {
    hornbeam::cli::main(hornbeam::cli::App::new())
}
