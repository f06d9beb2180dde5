// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
// A circular doubly linked list grown after its first node, then freed.
struct T { struct T *next; struct T *prev; int data; };
int main(void) {
  struct T *x = malloc(sizeof(struct T));
  x->next = x;
  x->prev = x;
  while (__VERIFIER_nondet_int()) {
    struct T *y = malloc(sizeof(struct T));
    y->next = x->next;
    y->next->prev = y;
    y->prev = x;
    x->next = y;
  }
  struct T *y = x->next;
  while (y != x) {
    struct T *z = y;
    y = y->next;
    free(z);
  }
  free(x);
  return 0;
}
