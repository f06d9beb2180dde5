// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
// A list whose nodes each hold a circular list headed by a part of the node: the inner
// head is reached from its node and from the inner list's last node, a closed structure
// the shape engine packs into a box below each outer node.
struct inner { struct inner *next; };
struct outer { struct inner head; struct outer *next; };
int main(void) {
  struct outer *first = NULL;
  while (__VERIFIER_nondet_int()) {
    struct outer *x = malloc(sizeof(struct outer));
    x->head.next = &x->head;
    while (__VERIFIER_nondet_int()) {
      struct inner *y = malloc(sizeof(struct inner));
      y->next = x->head.next;
      x->head.next = y;
    }
    x->next = first;
    first = x;
  }
  while (first) {
    struct outer *x = first;
    first = first->next;
    struct inner *y = x->head.next;
    while (y != &x->head) {
      struct inner *z = y;
      y = y->next;
      free(z);
    }
    free(x);
  }
  return 0;
}
