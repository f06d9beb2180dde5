// property: valid-memsafety valid-deref
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
  // Unlinking a node without checking that it has a predecessor: the head has none.
  struct T *p = x;
  while (p && __VERIFIER_nondet_int())
    p = p->next;
  if (p && p->next) {
    p->prev->next = p->next;
    p->next->prev = p->prev;
    free(p);
  }
  while (x) {
    struct T *d = x;
    x = x->next;
    free(d);
  }
  return 0;
}
