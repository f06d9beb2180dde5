//! Tests of the shape engine under unreach-call, with tracked `int` locals, and of
//! self-loops: what it proves and where it must give up.

use super::*;

#[test]
fn under_unreach_call_error_calls_are_the_faults_and_leaks_are_not() {
    let unreach = |src: &str| run_under(src, PropertyKind::UnreachCall);
    // The list is never freed, and a node is dropped on the way: no matter here.
    let leaky = list_then("if (l) { l = l->next; } if (l && l == l->next) reach_error();");
    assert!(
        matches!(unreach(&leaky), Outcome::Safe(_)),
        "{:?}",
        unreach(&leaky)
    );
    assert!(gives_up(&run(&leaky), "leak"));
    // An error call a pointer condition does not rule out.
    let reached = list_then("if (l == NULL) reach_error();");
    assert!(gives_up(&unreach(&reached), "error call"));
    // A failing assertion is the same violation.
    let asserted = list_then("__VERIFIER_assert(l != NULL);");
    assert!(gives_up(&unreach(&asserted), "error call"));
    // `abort()` is not.
    let aborted = list_then("if (l == NULL) abort();");
    assert!(matches!(unreach(&aborted), Outcome::Safe(_)));
    // Invalid dereferences still stop the proof.
    let deref = list_then("l->data = 1;");
    assert!(gives_up(&unreach(&deref), "dereference"));
}

#[test]
fn under_unreach_call_tracked_fields_prove_assertions_on_them() {
    // Nodes marked 1, then 2, then one 3: walking the 1s and the 2s ends at the 3.
    let src = "typedef struct node { int h; struct node *n; } *List;
         int main(void) {
           List a = malloc(sizeof(struct node));
           List p = a; List t;
           while (__VERIFIER_nondet_int()) {
             p->h = 1; t = malloc(sizeof(struct node)); p->n = t; p = p->n;
           }
           while (__VERIFIER_nondet_int()) {
             p->h = 2; t = malloc(sizeof(struct node)); p->n = t; p = p->n;
           }
           p->h = 3;
           p = a;
           while (p->h == 1) p = p->n;
           while (p->h == 2) p = p->n;
           if (p->h != 3) reach_error();
           return 0;
         }";
    let o = run_under(src, PropertyKind::UnreachCall);
    assert!(matches!(o, Outcome::Safe(_)), "{o:?}");
    // With a 4 in place of the 3, the error is reachable: no proof.
    let wrong = src.replace("p->h = 3;", "p->h = 4;");
    let o = run_under(&wrong, PropertyKind::UnreachCall);
    assert!(gives_up(&o, "error call"), "{o:?}");
}

#[test]
fn garbage_dropped_under_unreach_call_leaves_back_links_undefined() {
    // `n1 -> n2 -> b`, with `b->prev == n2` and no other back pointer. Once no variable
    // points to `n1` and `n2`, `n1` is garbage, and the engine drops the tree holding both
    // (it does not split `n2` off); `b`'s back-link to `n2` then becomes undefined. The
    // error is reachable (`b->prev` is `n2`): the engine must not prove it unreachable.
    let src = "typedef struct node { struct node *next; struct node *prev; } Node;
         int main(void) {
           Node *n1 = malloc(sizeof(Node)); Node *n2 = malloc(sizeof(Node));
           Node *b = malloc(sizeof(Node));
           n1->next = n2; n2->next = b; b->next = NULL;
           n1->prev = NULL; n2->prev = NULL; b->prev = n2;
           n2 = NULL; n1 = NULL;
           if (b->prev != NULL) reach_error();
           return 0;
         }";
    let o = run_under(src, PropertyKind::UnreachCall);
    assert!(gives_up(&o, "error call"), "{o:?}");
    // Under valid-memsafety `n1` is a leak.
    assert!(gives_up(&run(src), "leak"));
}

#[test]
fn int_locals_compared_with_constants_are_tracked_when_needed() {
    // A flag alternates the marks 1 and 2; the check walks the list with the same flag.
    let src = |check_flag: &str| {
        format!(
            "typedef struct node {{ int h; struct node *n; }} *List;
             int main(void) {{
               int flag = 1;
               List a = malloc(sizeof(struct node));
               List p = a; List t;
               while (__VERIFIER_nondet_int()) {{
                 if (flag) {{ p->h = 1; flag = 0; }} else {{ p->h = 2; flag = 1; }}
                 t = malloc(sizeof(struct node)); p->n = t; p = p->n;
               }}
               p->h = 3;
               p = a;
               flag = 1;
               while (p->h != 3) {{
                 if ({check_flag}) {{ flag = 0; if (p->h != 1) reach_error(); }}
                 else {{ flag = 1; if (p->h != 2) reach_error(); }}
                 p = p->n;
               }}
               return 0;
             }}"
        )
    };
    let o = run_under(&src("flag"), PropertyKind::UnreachCall);
    // The loop heads show the flag's value.
    assert!(proof_shows(&o, "flag = 1"), "{o:?}");
    // Checking the opposite order, the error is reachable.
    let o = run_under(&src("!flag"), PropertyKind::UnreachCall);
    assert!(gives_up(&o, "error call"), "{o:?}");
}

#[test]
fn integers_that_may_wrap_are_not_tracked() {
    // 256 stored in an `unsigned char` is 0: the error is reachable.
    let src = "typedef struct node { struct node *next; unsigned char m; } Node;
         int main(void) {
           Node *n = malloc(sizeof(Node)); n->next = NULL;
           unsigned char c = 256; n->m = 256;
           if (c == 0 && n->m == 0) reach_error();
           free(n);
           return 0;
         }";
    let o = run_under(src, PropertyKind::UnreachCall);
    assert!(gives_up(&o, "error call"), "{o:?}");
    // As `int`s they are tracked, and the error is unreachable.
    let ints = src.replace("unsigned char", "int");
    let o = run_under(&ints, PropertyKind::UnreachCall);
    assert!(matches!(o, Outcome::Safe(_)), "{o:?}");
}

#[test]
fn self_loops_are_no_cut_points() {
    // Each node points to itself (kind 1) or to an external node of its own (kind 2); the
    // check and the destruction tell them apart by the kind. Without the kinds the height-1
    // abstraction merges a list node holding an external node with an external node (their
    // fields' states look alike at height 0), and the proof fails.
    let src = "typedef struct node { struct node *next; struct node *opt; int kind; } Node;
         int main(void) {
           Node *head = NULL;
           while (__VERIFIER_nondet_int()) {
             Node *n = malloc(sizeof(Node));
             n->next = head;
             if (__VERIFIER_nondet_int()) { n->kind = 1; n->opt = n; }
             else { n->kind = 2; n->opt = malloc(sizeof(Node)); n->opt->next = NULL; }
             head = n;
           }
           Node *x = head;
           while (x != NULL) {
             if (x->kind == 2 && (x->opt == x || x->opt->next != NULL)) reach_error();
             if (x->kind != 2 && x->opt != x) reach_error();
             x = x->next;
           }
           while (head != NULL) {
             x = head; head = head->next;
             if (x->kind == 2) free(x->opt);
             free(x);
           }
           return 0;
         }";
    let o = run(src);
    assert!(proof_shows(&o, "itself"), "{o:?}");
    assert!(matches!(
        run_under(src, PropertyKind::UnreachCall),
        Outcome::Safe(_)
    ));
    // Freeing the node and then writing through its self-pointer is a fault.
    let dangling = "typedef struct node { struct node *next; struct node *opt; } Node;
         int main(void) {
           Node *x = malloc(sizeof(Node));
           x->next = NULL; x->opt = x;
           Node *y = x->opt;
           free(x);
           y->next = NULL;
           return 0;
         }";
    assert!(gives_up(&run(dangling), "dereference"));
    // A node only its own field points to is lost.
    let lost = "typedef struct node { struct node *next; struct node *opt; } Node;
         int main(void) {
           Node *x = malloc(sizeof(Node));
           x->next = NULL; x->opt = x;
           x = NULL;
           return 0;
         }";
    assert!(gives_up(&run(lost), "leak"));
}
