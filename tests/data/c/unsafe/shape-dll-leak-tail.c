// property: valid-memsafety valid-memtrack
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
  // The list is cut after its first node: the tail is lost.
  if (x && x->next) {
    x->next->prev = NULL;
    x->next = NULL;
  }
  while (x) {
    struct T *d = x;
    x = x->next;
    free(d);
  }
  return 0;
}
