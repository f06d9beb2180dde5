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
  // The first node is freed, then reached again through the second one's prev.
  if (x && x->next) {
    struct T *s = x->next;
    free(x);
    s->prev->data = 1;
    x = s;
  }
  while (x) {
    struct T *d = x;
    x = x->next;
    free(d);
  }
  return 0;
}
