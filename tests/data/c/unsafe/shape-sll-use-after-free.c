// property: valid-memsafety valid-deref
// Advances through a freed node.
#include <stdlib.h>
struct node { struct node *next; };
int main(void) {
  struct node *list = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    n->next = list;
    list = n;
  }
  while (list) {
    free(list);
    list = list->next;
  }
  return 0;
}
