//! The interpreter's budgets against deep programs.

use super::*;
use crate::frontend::c::{read_program, DataModel};

#[test]
fn the_nesting_budget_stops_deep_recursion_before_the_stack_does() {
    // Every call evaluates 200 nested additions around the recursive call: far more
    // nesting than the budget, with calls well within the call-depth budget.
    let src = format!(
        "int f(int n) {{ if (n <= 0) return 0; return {}f(n - 1){}; }}\n\
         int main() {{ return f(10000); }}\n",
        "1 + (".repeat(200),
        ")".repeat(200)
    );
    // The default budget on the stack `verify` gives the front end (512 MB).
    let outcome = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let p = read_program(&src, DataModel::Ilp32).expect("in the subset");
            run(&p, HashMap::new(), Budget::default(), &|_| 1)
        })
        .expect("thread")
        .join()
        .expect("no overflow");
    assert_eq!(
        outcome,
        Outcome::Stuck("nesting budget exhausted".to_owned())
    );
}
