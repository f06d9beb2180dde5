// property: valid-memsafety valid-memtrack
// Frees only the first node of a list: the rest is lost (the shape engine reports a leak
// under its abstraction, which is no answer; the concrete replay decides).
#include <stdlib.h>
struct node { struct node *next; };
int main(void) {
  struct node *list = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    n->next = list;
    list = n;
  }
  if (list)
    free(list);
  return 0;
}
