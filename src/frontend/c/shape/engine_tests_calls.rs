//! Tests of calls inlined into the pointer program (`lower_call.rs`): results, pointer
//! parameters, `struct T **` parameters aliasing a caller's variable, the callee's variables
//! dying at its return, and where inlining gives up; and of two forms the SV-COMP and Forester
//! list programs use around their calls (`sizeof(*p->f)`, `__nondet()`).

use super::*;

/// Nodes, a constructor and a destructor, then `main`.
fn with_functions(main: &str) -> String {
    format!(
        "typedef struct node {{ int data; struct node *next; }} Node;
         Node *create(int d) {{
           Node *n = malloc(sizeof(Node));
           if (!n) abort();
           n->data = d;
           n->next = NULL;
           return n;
         }}
         void push(Node **l, int d) {{
           Node *n = create(d);
           n->next = *l;
           *l = n;
         }}
         void destroy(Node *l) {{
           while (l) {{ Node *t = l->next; free(l); l = t; }}
         }}
         {main}"
    )
}

#[test]
fn a_list_built_and_freed_through_calls_is_safe() {
    let src = with_functions(
        "int main(void) {
           Node *l = NULL;
           while (__VERIFIER_nondet_int()) push(&l, 1);
           destroy(l);
           return 0;
         }",
    );
    let o = run(&src);
    assert!(matches!(o, Outcome::Safe(_)), "{o:?}");
    // Without the destructor the list is left allocated; freeing its head twice is a fault.
    let leak = src.replace("destroy(l);", "");
    assert!(
        gives_up(&run(&leak), "allocated at the end"),
        "{:?}",
        run(&leak)
    );
    let twice = src.replace("destroy(l);", "if (l) { free(l); free(l); }");
    assert!(gives_up(&run(&twice), "free"), "{:?}", run(&twice));
}

#[test]
fn a_returned_pointer_outlives_the_call_and_the_locals_do_not() {
    let kept = with_functions(
        "int main(void) {
           Node *a = create(1);
           a->next = create(2);
           destroy(a);
           return 0;
         }",
    );
    let o = run(&kept);
    assert!(matches!(o, Outcome::Safe(_)), "{o:?}");
    // A block only a local of the callee points to is lost when the callee returns.
    let lost = with_functions(
        "void lose(void) { Node *n = create(3); n->data = 4; }
         int main(void) { lose(); return 0; }",
    );
    assert!(gives_up(&run(&lost), "leak"), "{:?}", run(&lost));
}

#[test]
fn a_callee_sees_tracked_fields_under_unreach_call() {
    // The callee checks the marks `main` set (the value `create` stores is a parameter's,
    // not tracked): only tracked when the callee's comparisons count too.
    let src = with_functions(
        "void check(Node *l) {
           while (l) { if (l->data != 1) reach_error(); l = l->next; }
         }
         int main(void) {
           Node *l = NULL;
           while (__VERIFIER_nondet_int()) { push(&l, 0); l->data = 1; }
           check(l);
           destroy(l);
           return 0;
         }",
    );
    let o = run_under(&src, PropertyKind::UnreachCall);
    assert!(matches!(o, Outcome::Safe(_)), "{o:?}");
    let wrong = src.replace("l->data = 1;", "l->data = 2;");
    let o = run_under(&wrong, PropertyKind::UnreachCall);
    assert!(gives_up(&o, "error call"), "{o:?}");
}

#[test]
fn recursion_and_unaliased_double_pointers_give_up() {
    let recursive = with_functions(
        "void walk(Node *l) { if (l) walk(l->next); }
         int main(void) { Node *l = create(1); walk(l); destroy(l); return 0; }",
    );
    assert!(gives_up(&run(&recursive), "recursive call of `walk`"));
    // `&l->next` is no pointer variable of the caller.
    let field = with_functions(
        "int main(void) { Node *l = create(1); push(&l->next, 2); destroy(l); return 0; }",
    );
    assert!(gives_up(&run(&field), "argument of `push`"));
    // A `goto` in a callee.
    let jumps = with_functions(
        "void j(Node *l) { again: if (l) { l = l->next; goto again; } }
         int main(void) { Node *l = create(1); j(l); destroy(l); return 0; }",
    );
    assert!(gives_up(&run(&jumps), "`goto` in a called function"));
}

#[test]
fn allocations_sized_by_a_field_and_forester_nondet() {
    // `sizeof(*x->list)` is the size of the struct `x->list` points to; `__nondet()` is
    // Forester's nondeterministic integer.
    let src = "struct l { struct l *n; };
         struct t { struct t *k; struct l *list; };
         int main(void) {
           struct t *x = malloc(sizeof(*x));
           x->k = NULL;
           x->list = malloc(sizeof(*x->list));
           x->list->n = NULL;
           if (__nondet()) { free(x->list); x->list = NULL; }
           free(x->list);
           free(x);
           return 0;
         }";
    let o = run(src);
    assert!(matches!(o, Outcome::Safe(_)), "{o:?}");
    let wrong = src.replace("malloc(sizeof(*x->list))", "malloc(sizeof(*x))");
    assert!(gives_up(&run(&wrong), "size"), "{:?}", run(&wrong));
}
