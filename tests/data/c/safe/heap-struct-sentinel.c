// property: valid-memsafety
// A list ending at the struct variable `sentinel` (the end marker of the Deutsch-Schorr-Waite
// traversal in Forester's tree-dsw.c): the variable is a node of its own that is neither
// freed nor leaked, and the walk stops at its address.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; int data; };
int main(void) {
  struct node sentinel;
  sentinel.data = 0;
  struct node *l = &sentinel;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    n->next = l;
    n->data = 1;
    l = n;
  }
  while (l != &sentinel) {
    struct node *d = l;
    l = l->next;
    free(d);
  }
  return 0;
}
