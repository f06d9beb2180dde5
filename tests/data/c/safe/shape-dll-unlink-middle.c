// property: valid-memsafety
// A node chosen anywhere but at either end is unlinked through its prev and freed; then
// the list is freed from its tail backwards.
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
  struct T *p = x;
  while (p && __VERIFIER_nondet_int()) p = p->next;
  if (p && p->prev && p->next) {
    p->prev->next = p->next;
    p->next->prev = p->prev;
    free(p);
  }
  while (x && x->next)
    x = x->next;
  while (x) {
    struct T *q = x->prev;
    free(x);
    x = q;
  }
  return 0;
}
