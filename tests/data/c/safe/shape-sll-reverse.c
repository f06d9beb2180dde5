// property: valid-memsafety
// A list of any length, reversed in place, then freed: needs a shape invariant.
#include <stdlib.h>
typedef struct node { int data; struct node *next; } Node;
int main(void) {
  Node *list = NULL;
  while (__VERIFIER_nondet_int()) {
    Node *n = malloc(sizeof(Node));
    n->data = __VERIFIER_nondet_int();
    n->next = list;
    list = n;
  }
  Node *rev = NULL;
  while (list) {
    Node *next = list->next;
    list->next = rev;
    rev = list;
    list = next;
  }
  while (rev != NULL) {
    Node *dead = rev;
    rev = rev->next;
    if (dead->data > 0)
      dead->data = 0;
    free(dead);
  }
  return 0;
}
