//! Tests of struct variables and struct fields as nodes (`lower_parts.rs`): a sentinel
//! variable ending a list, a list of blocks each holding a struct, and the frees and
//! lifetimes that are faults on them; of pointers to pointer fields (`lower_field_ptr.rs`);
//! and of a dereference of a null constant.

use super::*;

/// A list of any length ending at the struct variable `sentinel`, then `rest`.
fn to_sentinel(rest: &str) -> String {
    format!(
        "typedef struct node {{ struct node *next; int data; }} Node;
         int main(void) {{
           Node sentinel;
           Node *l = &sentinel;
           while (__VERIFIER_nondet_int()) {{
             Node *n = malloc(sizeof(Node));
             n->next = l; n->data = 0; l = n;
           }}
           {rest}
           return 0;
         }}"
    )
}

#[test]
fn a_list_ending_at_a_struct_variable_is_safe() {
    let freed = "while (l != &sentinel) { Node *d = l; l = l->next; free(d); }";
    let o = run(&to_sentinel(freed));
    assert!(proof_shows(&o, "struct node (variable)"), "{o:?}");
    // The variable's own fields are usable like a block's.
    let o = run(&to_sentinel(&format!(
        "sentinel.data = 1; sentinel.next = NULL; {freed}"
    )));
    assert!(matches!(o, Outcome::Safe(_)), "{o:?}");
}

#[test]
fn freeing_a_struct_variable_or_leaving_its_list_behind_is_a_fault() {
    // The walk frees the sentinel too.
    let o = run(&to_sentinel(
        "while (l) { Node *d = l; l = l->next; free(d); if (d == &sentinel) break; }",
    ));
    assert!(gives_up(&o, "invalid free"), "{o:?}");
    // The list is left allocated (the sentinel is not a block: only the list is left).
    assert!(gives_up(&run(&to_sentinel("")), "still allocated"));
}

#[test]
fn a_pointer_to_a_struct_variable_dangles_after_its_scope() {
    let src = "typedef struct node { struct node *next; } Node;
        int main(void) {
          Node *p = NULL;
          { Node inner; inner.next = NULL; p = &inner; }
          p->next = NULL;
          return 0;
        }";
    assert!(gives_up(&run(src), "invalid dereference"), "{:?}", run(src));
    // Used inside its scope, it is fine.
    let ok = src.replace(
        "p = &inner; }\n          p->next = NULL;",
        "p = &inner; p->next = NULL; }",
    );
    assert!(matches!(run(&ok), Outcome::Safe(_)), "{ok}");
}

/// A list of blocks, each holding a `struct item` whose `next` is null or one more block of
/// its own; the blocks are freed by `free_one` (given `x`).
fn holders(free_one: &str) -> String {
    format!(
        "struct item {{ struct item *next; int data; }};
         struct holder {{ struct holder *next; struct item head; }};
         int main(void) {{
           struct holder *l = NULL;
           while (__VERIFIER_nondet_int()) {{
             struct holder *x = malloc(sizeof(struct holder));
             x->next = l; x->head.next = NULL; x->head.data = 0;
             if (__VERIFIER_nondet_int()) {{
               x->head.next = malloc(sizeof(struct item));
               x->head.next->next = NULL;
             }}
             l = x;
           }}
           while (l) {{
             struct holder *x = l; l = l->next;
             {free_one}
           }}
           return 0;
         }}"
    )
}

#[test]
fn blocks_holding_structs_are_freed_with_their_parts() {
    let o = run(&holders(
        "struct item *i = &x->head; free(i->next); free(x);",
    ));
    assert!(proof_shows(&o, "struct item (part)"), "{o:?}");
    // The item below the part is lost when only the holder is freed.
    assert!(gives_up(&run(&holders("free(x);")), "leak"));
    // A part is no block of its own.
    assert!(gives_up(
        &run(&holders("free(x->head.next); free(&x->head);")),
        "invalid free"
    ));
    // A pointer to a part dangles once its holder is freed.
    assert!(gives_up(
        &run(&holders(
            "struct item *i = &x->head; free(i->next); free(x); i->data = 1;"
        )),
        "invalid dereference"
    ));
}

#[test]
fn a_dereference_of_a_null_constant_is_a_fault_where_it_is_reached() {
    let program = |cond: &str| {
        format!(
            "typedef struct node {{ struct node *next; }} Node;
             int main(void) {{
               Node *a = malloc(sizeof(Node));
               if ({cond}) ((Node *)NULL)->next = NULL;
               free(a);
               return 0;
             }}"
        )
    };
    // `malloc` never fails here: the dereference is dead code.
    assert!(matches!(run(&program("a == NULL")), Outcome::Safe(_)));
    assert!(gives_up(&run(&program("a != NULL")), "invalid dereference"));
}

/// A list kept sorted by inserting through a pointer to the field to update (`pp`, starting
/// at the head variable's own stand-in: the `next` field of a struct variable), then `rest`.
fn sorted_insert(rest: &str) -> String {
    format!(
        "typedef struct node {{ struct node *next; int key; }} Node;
         int main(void) {{
           Node head;
           head.next = NULL;
           while (__VERIFIER_nondet_int()) {{
             Node *n = malloc(sizeof(Node));
             n->key = __VERIFIER_nondet_int();
             Node **pp = &head.next;
             while (*pp && (*pp)->key < n->key) pp = &(*pp)->next;
             n->next = *pp;
             *pp = n;
           }}
           {rest}
           return 0;
         }}"
    )
}

#[test]
fn a_pointer_to_the_field_to_update_inserts_into_a_list() {
    let freed = "Node *l = head.next;
                 while (l) { Node *d = l; l = l->next; free(d); }";
    let o = run(&sorted_insert(freed));
    assert!(matches!(o, Outcome::Safe(_)), "{o:?}");
    // Without the frees the list is left at the end.
    assert!(gives_up(&run(&sorted_insert("")), "still allocated"));
}

#[test]
fn a_pointer_to_a_field_reads_and_writes_that_field_only() {
    // `pp` names `b->next`: the store leaves `a->next` (null) alone, so `a->next->next`
    // dereferences null.
    let program = |field: &str| {
        format!(
            "typedef struct node {{ struct node *next; struct node *other; }} Node;
             int main(void) {{
               Node *a = malloc(sizeof(Node)); a->next = NULL; a->other = NULL;
               Node *b = malloc(sizeof(Node)); b->next = NULL; b->other = NULL;
               Node **pp = &{field};
               *pp = b;
               a->next->next = NULL;
               b->next = NULL; a->next = NULL; a->other = NULL;
               free(a); free(b);
               return 0;
             }}"
        )
    };
    assert!(matches!(run(&program("a->next")), Outcome::Safe(_)));
    assert!(gives_up(&run(&program("b->next")), "invalid dereference"));
    assert!(gives_up(&run(&program("a->other")), "invalid dereference"));
}

#[test]
fn a_pointer_to_a_variable_stands_for_that_variable_while_it_lives() {
    let program = |inner: &str| {
        format!(
            "typedef struct node {{ struct node *next; }} Node;
             int main(void) {{
               Node *head = NULL;
               Node **pp = &head;
               {inner}
               *pp = malloc(sizeof(Node));
               (*pp)->next = NULL;
               free(head);
               return 0;
             }}"
        )
    };
    assert!(matches!(run(&program("")), Outcome::Safe(_)));
    // Set to a variable of an inner block, `pp` would outlive it: not read.
    let o = run(&program("{ Node *inner = NULL; pp = &inner; }"));
    assert!(gives_up(&o, "dies before the pointer"), "{o:?}");
}

#[test]
fn a_null_or_uninitialised_pointer_to_a_field_is_no_place() {
    // No struct has a field pointing to `Node`: `*pp` is `head` or nothing.
    let program = |set: &str| {
        format!(
            "typedef struct node {{ int data; }} Node;
             int main(void) {{
               Node *head = NULL;
               Node **pp = &head;
               Node **q;
               if (__VERIFIER_nondet_int()) {set}
               *pp = malloc(sizeof(Node));
               free(head);
               return 0;
             }}"
        )
    };
    assert!(matches!(run(&program("pp = &head;")), Outcome::Safe(_)));
    // Null, or a copy of the uninitialised `q`: a fault (before the tag of its own, the
    // branch for `head` was taken there).
    for set in ["pp = NULL;", "pp = q;"] {
        let o = run(&program(set));
        assert!(gives_up(&o, "invalid dereference"), "{set}: {o:?}");
    }
}
