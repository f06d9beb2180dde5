// property: valid-memsafety valid-free
// A circular doubly linked list freed after its first node, then its first node freed again.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct T { struct T *next; struct T *prev; int data; };
int main(void) {
  struct T *x = malloc(sizeof(struct T));
  x->next = x; x->prev = x;
  while (__VERIFIER_nondet_int()) {
    struct T *y = malloc(sizeof(struct T));
    y->next = x->next; y->next->prev = y; y->prev = x; x->next = y;
  }
  struct T *y = x->next;
  while (y != x) { struct T *z = y; y = y->next; free(z); }
  free(x); free(y);
  return 0;
}
