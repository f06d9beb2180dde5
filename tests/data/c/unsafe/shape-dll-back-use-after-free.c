// property: valid-memsafety valid-deref
// Freed backwards from the tail, but each step reads the freed node through its prev.
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
  while (x && x->next) x = x->next;
  while (x) { struct T *p = x->prev; free(x); if (p) p->next->data = 1; x = p; }
  return 0;
}
