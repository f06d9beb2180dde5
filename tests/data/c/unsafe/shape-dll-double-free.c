// property: valid-memsafety valid-free
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
  // The second node's prev is the first node, freed twice.
  if (x && x->next) {
    struct T *s = x->next;
    free(s->prev);
    x = s;
    free(s->prev);
  }
  while (x) {
    struct T *d = x;
    x = x->next;
    free(d);
  }
  return 0;
}
