// property: valid-memcleanup
// Every node points back to the first one (a cut-point many nodes reference).
#include <stdlib.h>
struct T { struct T *next; struct T *first; };
int main(void) {
  struct T *first = malloc(sizeof(struct T));
  first->next = NULL;
  first->first = first;
  struct T *last = first;
  while (__VERIFIER_nondet_int()) {
    last->next = malloc(sizeof(struct T));
    last = last->next;
    last->next = NULL;
    last->first = first;
  }
  while (first) {
    last = first->next;
    free(first);
    first = last;
  }
  return 0;
}
