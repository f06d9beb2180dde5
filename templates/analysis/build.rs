//! Hornbeam links Z3 as a shared library that its build fetched into a cache; a binary of this
//! crate finds it there through its rpath (Hornbeam's build script says where).

fn main() {
    if let Ok(dir) = std::env::var("DEP_HORNBEAM_Z3_LIB") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
