// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
// A doubly linked list whose nodes each hold a circular doubly linked list headed by a part
// of the node, of the inner nodes' own struct: the head's `prev` and the first inner
// node's `prev` are the back-links (as between nodes of one type), so a one-node inner
// list glues into one tree and the whole inner list packs into a box.
struct T { struct T *next; struct T *prev; };
struct T2 { struct T head; struct T2 *next; struct T2 *prev; };
int main(void) {
  struct T2 *first = NULL, *last = NULL;
  while (__VERIFIER_nondet_int()) {
    struct T2 *x = malloc(sizeof(struct T2));
    x->next = NULL;
    x->prev = last;
    x->head.next = &x->head;
    x->head.prev = &x->head;
    while (__VERIFIER_nondet_int()) {
      struct T *y = malloc(sizeof(struct T));
      y->next = x->head.next;
      y->next->prev = y;
      y->prev = &x->head;
      x->head.next = y;
    }
    if (last) last->next = x; else first = x;
    last = x;
  }
  while (first) {
    struct T2 *x = first;
    first = first->next;
    struct T *y = x->head.prev;
    while (y != &x->head) {
      struct T *z = y;
      y = y->prev;
      free(z);
    }
    free(x);
  }
  return 0;
}
