//! Tests of closed boxes (`closed.rs`) on programs: lists whose nodes each hold a circular
//! list, singly or doubly linked, through a part or through `container_of`; and of the
//! joins that keep forests apart where their references are held differently
//! (`fixpoint.rs`, [`super::super::fa::Forest::holders`]).

use super::*;

/// A list of nodes built at the front, each node holding a circular singly linked list
/// headed by its part `head`, grown by `grow` (with `y` a fresh inner node and `x` the
/// outer one); then each outer node is taken off, its inner list walked and freed with
/// `free_inner` (`z` the node to free), and the node freed after `after`.
fn list_of_cycles(grow: &str, free_inner: &str, after: &str) -> String {
    format!(
        "struct T {{ struct T *next; int data; }};
         struct T2 {{ struct T head; struct T2 *next; }};
         int main(void) {{
           struct T2 *first = NULL;
           while (__VERIFIER_nondet_int()) {{
             struct T2 *x = malloc(sizeof(struct T2));
             x->head.next = &x->head;
             while (__VERIFIER_nondet_int()) {{
               struct T *y = malloc(sizeof(struct T));
               {grow}
             }}
             x->next = first;
             first = x;
           }}
           while (first) {{
             struct T2 *x = first;
             first = first->next;
             struct T *y = x->head.next;
             while (y != &x->head) {{
               struct T *z = y;
               y = y->next;
               {free_inner}
             }}
             {after}
             free(x);
           }}
           return 0;
         }}"
    )
}

const AT_FRONT: &str = "y->next = x->head.next; x->head.next = y;";

#[test]
fn a_list_of_circular_lists_is_safe_with_each_inner_list_in_a_box() {
    let o = run(&list_of_cycles(AT_FRONT, "free(z);", ""));
    // The outer loop's forests name a box, drawn after them.
    assert!(proof_shows(&o, "box 0"), "{o:?}");
    // Inserted after the first inner node instead.
    let second = "if (x->head.next != &x->head) { y->next = x->head.next->next; \
                  x->head.next->next = y; } else { y->next = &x->head; x->head.next = y; }";
    assert!(matches!(
        run(&list_of_cycles(second, "free(z);", "")),
        Outcome::Safe(_)
    ));
}

#[test]
fn inner_lists_left_or_walked_wrong_are_faults() {
    // Inner nodes never freed.
    let o = run(&list_of_cycles(AT_FRONT, "", ""));
    assert!(gives_up(&o, "leak"), "{o:?}");
    // The head's field still points to the first inner node, freed.
    let o = run(&list_of_cycles(
        AT_FRONT,
        "free(z);",
        "x->head.next->data = 1;",
    ));
    assert!(gives_up(&o, "invalid dereference"), "{o:?}");
    // The walk never stops at the head: past the last node it frees the head, a part.
    let src = list_of_cycles(AT_FRONT, "free(z);", "").replace("y != &x->head", "y != NULL");
    assert!(gives_up(&run(&src), "invalid free"), "{:?}", run(&src));
}

#[test]
fn a_list_of_circular_doubly_linked_lists_is_safe() {
    let src = include_str!("../../../../tests/data/c/shape-safe/list-of-circular-dlls.c");
    let o = run(src);
    assert!(proof_shows(&o, "box "), "{o:?}");
}

#[test]
fn linux_lists_nested_in_the_items_of_a_list_are_safe() {
    // Each item of an outer list holds a Linux list head; the walk copies the container
    // of the head (`now = next`): `&now->link` is then the head, as `&next->link` was.
    let src = "struct list_head { struct list_head *next, *prev; };
         struct item { struct list_head link; void *data; };
         struct master { struct master *next; struct list_head nested; };
         #define container_of(p, T, f) ((T *)((char *)(p) - __builtin_offsetof(T, f)))
         int main(void) {
           struct master *all = NULL, *pm;
           struct list_head *lh, *n;
           struct item *now, *next;
           while (__VERIFIER_nondet_int()) {
             pm = malloc(sizeof *pm);
             pm->next = all;
             lh = &pm->nested;
             lh->next = lh;
             lh->prev = lh;
             while (__VERIFIER_nondet_int()) {
               now = malloc(sizeof *now);
               now->data = NULL;
               n = &now->link;
               n->next = lh;
               n->prev = lh->prev;
               lh->prev->next = n;
               lh->prev = n;
             }
             lh = NULL; n = NULL; now = NULL;
             all = pm;
             pm = NULL;
           }
           while (all) {
             pm = all;
             all = all->next;
             lh = &pm->nested;
             now = container_of(lh->next, struct item, link);
             while (&now->link != lh) {
               next = container_of(now->link.next, struct item, link);
               free(now);
               now = next;
             }
             lh = NULL;
             free(pm);
           }
           return 0;
         }";
    let o = run(src);
    assert!(proof_shows(&o, "box "), "{o:?}");
}

#[test]
fn a_variable_below_a_left_or_a_right_child_with_a_parent_pointer_is_not_joined_across() {
    // The node a variable points to names its parent through a back-link along the field
    // that holds it; joining the forests where it is a left child with those where it is a
    // right one would pair each field with the other's back-link.
    let src = include_str!("../../../../tests/data/c/shape-safe/tree-with-parents.c");
    let o = run(src);
    assert!(proof_shows(&o, "back along struct node.left"), "{o:?}");
}
