//! Tests of `container_of` (`lower_container.rs`): a Linux-style list whose links are
//! `struct list_head` fields of its items, walked back from the links to the items; and of
//! the turning of a container/part pair whose explicit pointer points the wrong way
//! (`boxes.rs`, `flip_back`).

use super::*;

/// A circular list through the `link` fields of items, headed by the variable `head`, built
/// with any number of items, then walked from `head.next` with `container_of`: `walk` is the
/// loop's condition and `body` its statement, after `rest`.
fn linux_list(walk: &str, body: &str, rest: &str) -> String {
    format!(
        "struct list_head {{ struct list_head *next; }};
         struct item {{ void *data; int key; struct list_head link; }};
         int main(void) {{
           struct list_head head = {{ &(head) }};
           struct item *it;
           while (__VERIFIER_nondet_int()) {{
             it = malloc(sizeof *it);
             it->data = ((void *)0);
             it->link.next = head.next;
             head.next = &it->link;
           }}
           struct item *now = (struct item *)((char *)head.next
               - __builtin_offsetof(struct item, link));
           while ({walk}) {{
             it = now;
             now = (struct item *)((char *)now->link.next
                 - __builtin_offsetof(struct item, link));
             {body}
           }}
           {rest}
           return 0;
         }}"
    )
}

const BACK_AT_HEAD: &str = "&now->link != &head";

#[test]
fn a_linux_list_walked_by_container_of_is_freed_safely() {
    let o = run(&linux_list(BACK_AT_HEAD, "it->key = 1; free(it);", ""));
    assert!(proof_shows(&o, "(part struct item.link)"), "{o:?}");
    // The walk reaches every item: the list is one tree, no item a cut-point of its own.
    assert!(proof_shows(&o, "back along struct item.link"), "{o:?}");
}

#[test]
fn container_of_the_head_is_no_item() {
    // Walked until `now` is null, which it never is: past the last item `now` is the
    // container of the head, which is no item, and its use is a fault.
    let o = run(&linux_list("now != NULL", "free(it);", ""));
    assert!(gives_up(&o, "invalid free"), "{o:?}");
    // After the walk `now` stands just below the head: its fields are no memory.
    let o = run(&linux_list(BACK_AT_HEAD, "free(it);", "now->key = 0;"));
    assert!(gives_up(&o, "invalid dereference"), "{o:?}");
}

#[test]
fn items_left_or_freed_twice_or_freed_by_their_link_are_faults() {
    let leak = run(&linux_list(BACK_AT_HEAD, "", ""));
    assert!(gives_up(&leak, "still allocated"), "{leak:?}");
    let twice = run(&linux_list(BACK_AT_HEAD, "free(it); free(it);", ""));
    assert!(gives_up(&twice, "invalid free"), "{twice:?}");
    let link = run(&linux_list(BACK_AT_HEAD, "free(&it->link);", ""));
    assert!(gives_up(&link, "invalid free"), "{link:?}");
}

#[test]
fn container_of_is_read_in_its_exact_form_only() {
    // Another offset subtracted, another cast, another field's type.
    let other = linux_list(BACK_AT_HEAD, "free(it);", "").replacen(
        "(char *)head.next",
        "(char *)head.next - 8",
        1,
    );
    assert!(gives_up(&run(&other), "does not read"), "{:?}", run(&other));
    let cast = linux_list(BACK_AT_HEAD, "free(it);", "").replacen(
        "(char *)head.next",
        "(int *)head.next",
        1,
    );
    assert!(gives_up(&run(&cast), "does not read"), "{:?}", run(&cast));
    let field = linux_list(BACK_AT_HEAD, "free(it);", "").replacen(
        "__builtin_offsetof(struct item, link)",
        "__builtin_offsetof(struct item, key)",
        1,
    );
    assert!(gives_up(&run(&field), "does not read"), "{:?}", run(&field));
    // A field pointing to no struct holds null only.
    let stored = linux_list(BACK_AT_HEAD, "free(it);", "").replacen(
        "it->data = ((void *)0);",
        "it->data = it;",
        1,
    );
    assert!(
        gives_up(&run(&stored), "does not read"),
        "{:?}",
        run(&stored)
    );
}

/// Items and their links pointing to each other, the list running through the links from
/// a head of the links' type; `build` makes one item and its link in the construction loop.
fn linked_items(build: &str) -> String {
    format!(
        "struct item;
        struct link {{ struct link *next; struct item *up; }};
        struct item {{ int key; struct link *l; }};
        int main(void) {{
          struct link *head = malloc(sizeof(struct link));
          head->next = head; head->up = NULL;
          struct item *it; struct link *k;
          while (__VERIFIER_nondet_int()) {{
            {build}
            it->l = k; k->up = it; k->next = head->next; head->next = k;
          }}
          struct link *now = head->next;
          while (now != head) {{
            struct item *it = now->up;
            struct link *n = now->next;
            free(it->l); free(it);
            now = n;
          }}
          free(head);
          return 0;
        }}"
    )
}

#[test]
fn a_pair_of_pointers_between_two_types_turns_to_follow_the_list() {
    // Each item points to its link and back, and the list runs through the links: the
    // link's pointer to its item becomes the explicit one, the item's a back-link.
    let src = linked_items("it = malloc(sizeof(struct item)); k = malloc(sizeof(struct link));");
    let o = run(&src);
    assert!(proof_shows(&o, "back along struct link.up"), "{o:?}");
}

#[test]
fn a_head_of_the_links_type_keeps_its_null_field_apart_from_the_links() {
    // As above, with the item and link variables dying at each iteration's end: the head
    // (whose `up` is null) sits in the same tree as the links (whose `up` holds an item),
    // and the abstraction must not merge them, or the head seems to hold an item that the
    // final `free(head)` leaks.
    let src = linked_items(
        "struct item *it = malloc(sizeof(struct item));
         struct link *k = malloc(sizeof(struct link));",
    );
    let o = run(&src);
    assert!(matches!(o, Outcome::Safe(_)), "{o:?}");
}
