//! Tests of the shape engine on small programs: what it proves and where it gives up.

use super::*;
use std::time::Duration;

/// The engine's outcome on a program.
fn run(src: &str) -> Outcome {
    let items = super::super::parse::parse_unit(src).expect("parses");
    analyze(&items, Instant::now() + Duration::from_secs(20), &|_| 1)
}

/// A list of any length built at the front, then `rest`.
fn list_then(rest: &str) -> String {
    format!(
        "typedef struct node {{ int data; struct node *next; }} Node;
         int main(void) {{
           Node *l = NULL;
           while (__VERIFIER_nondet_int()) {{
             Node *n = malloc(sizeof(Node));
             n->next = l; l = n;
           }}
           {rest}
           return 0;
         }}"
    )
}

/// Whether the outcome is `Unknown` with a reason containing `text`.
fn gives_up(o: &Outcome, text: &str) -> bool {
    matches!(o, Outcome::Unknown(why) if why.contains(text))
}

#[test]
fn a_list_built_and_freed_is_safe() {
    let o = run(&list_then(
        "while (l) { Node *d = l; l = l->next; d->data = 1; free(d); }",
    ));
    let Outcome::Safe(proof) = o else {
        panic!("{o:?}")
    };
    // Both loops have their forests, and the first one names the list.
    assert_eq!(proof.heads.len(), 2);
    assert!(proof.heads[0]
        .1
        .iter()
        .any(|f| f.contains("struct node{next:")));
}

#[test]
fn faults_are_not_proofs() {
    // Only the head is freed: the rest leaks.
    assert!(gives_up(&run(&list_then("if (l) free(l);")), "leak"));
    // Nothing is freed: blocks are left at the end.
    assert!(gives_up(&run(&list_then("")), "still allocated"));
    // Use after free.
    assert!(gives_up(
        &run(&list_then("while (l) { free(l); l = l->next; }")),
        "dereference"
    ));
    // Double free of the last node.
    assert!(gives_up(
        &run(&list_then(
            "Node *p = l; while (l) { p = l; l = l->next; free(p); } if (p) free(p);"
        )),
        "free"
    ));
    // Dereference of a possibly null next.
    assert!(gives_up(
        &run(&list_then(
            "if (l) l->next->data = 0; while (l) { Node *d = l; l = l->next; free(d); }"
        )),
        "dereference"
    ));
}

#[test]
fn integer_conditions_are_nondeterministic() {
    // Safe only because of the data: the engine must not claim it.
    let src = list_then(
        "int k = 0; Node *p = l; while (p) { k++; p = p->next; }
         if (k > 1) { Node *d = l->next; l->next = NULL; free(d->next); }
         while (l) { Node *d = l; l = l->next; free(d); }",
    );
    assert!(matches!(run(&src), Outcome::Unknown(_)));
}

#[test]
fn unsupported_constructs_give_up() {
    let call = "struct s { struct s *n; };
                void f(struct s *p) { free(p); }
                int main(void) { struct s *p = malloc(sizeof(struct s)); f(p); return 0; }";
    assert!(gives_up(&run(call), "a call of `f`"));
    let arrays = "int main(void) { int a[2]; a[0] = 1; return 0; }";
    assert!(gives_up(&run(arrays), "array"));
    let size = "struct s { struct s *n; int d; };
                int main(void) { struct s *p = malloc(4); free(p); return 0; }";
    assert!(gives_up(&run(size), "size"));
}

#[test]
fn trees_are_safe() {
    let src = "struct t { struct t *l, *r; };
        int main(void) {
          struct t *root = calloc(1, sizeof(struct t));
          while (__VERIFIER_nondet_int()) {
            struct t *n = root;
            while (n->l && n->r) n = __VERIFIER_nondet_int() ? n->l : n->r;
            if (!n->l) n->l = calloc(1, sizeof(struct t));
          }
          while (root) {
            struct t *p = NULL, *n = root;
            while (n->l || n->r) { p = n; n = n->l ? n->l : n->r; }
            if (!p) root = NULL; else if (p->l == n) p->l = NULL; else p->r = NULL;
            free(n);
          }
          return 0;
        }";
    assert!(matches!(run(src), Outcome::Safe(_)), "{:?}", run(src));
}
