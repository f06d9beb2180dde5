//! `examples/program_analysis.rs`, a user's own rule set over a C program's control-flow
//! facts, run on `examples/c/stores.c` and on a program outside the subset. The example's
//! source is compiled into this test (its `analyse` function is what its `main` prints), so
//! the test runs it without a separately built example binary.

#[path = "../examples/program_analysis.rs"]
#[allow(dead_code)]
mod program_analysis;

#[test]
fn the_example_finds_unassigned_reads_and_dead_stores() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/c/stores.c");
    let src = std::fs::read_to_string(path).expect("example program");
    let report = program_analysis::analyse("stores.c", &src).expect("in the subset");
    assert_eq!(
        report,
        "program: stores.c\n\
         main: line 10: `unused` is assigned a value that is never read\n\
         main: line 12: `sum` may be read before it is assigned\n\
         main: line 15: `sum` is assigned a value that is never read\n\
         1 possibly unassigned read(s), 2 dead store(s)\n"
    );
}

#[test]
fn the_example_reports_a_self_initialiser_and_a_located_error() {
    let src = "int main(void) {\n  int x = x + 1;\n  return x;\n}\n";
    let report = program_analysis::analyse("self.c", src).expect("in the subset");
    assert!(
        report.contains("main: line 2: `x` may be read before it is assigned"),
        "{report}"
    );
    let err = program_analysis::analyse("f.c", "int main(void) {\n  float f;\n  return 0;\n}\n")
        .expect_err("floats are outside the subset");
    assert!(err.starts_with("f.c:2:"), "{err}");
}
