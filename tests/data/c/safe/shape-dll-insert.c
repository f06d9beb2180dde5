// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct T { struct T *next; struct T *prev; int data; };
int main(void) {
  struct T *x = NULL;
  while (__VERIFIER_nondet_int()) {
    struct T *y = malloc(sizeof(struct T));
    y->next = x;
    y->prev = NULL;
    if (x)
      x->prev = y;
    x = y;
  }
  // A node inserted after any node, then the list freed from its head.
  struct T *y = x;
  while (y) {
    if (__VERIFIER_nondet_int()) {
      struct T *z = malloc(sizeof(struct T));
      z->next = y->next;
      z->prev = y;
      y->next = z;
      if (z->next)
        z->next->prev = z;
      break;
    }
    y = y->next;
  }
  while (x) {
    struct T *d = x;
    x = x->next;
    free(d);
  }
  return 0;
}
