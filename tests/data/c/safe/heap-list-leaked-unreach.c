#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
// Leaks every node (no valid-memtrack here), but the error is unreachable: under
// unreach-call the shape engine drops the unreachable nodes instead of calling them a fault.
typedef struct node { struct node *next; int h; } *List;
int main(void) {
  List a = malloc(sizeof(struct node));
  a->next = NULL; a->h = 1;
  while (__VERIFIER_nondet_int()) {
    List t = malloc(sizeof(struct node));
    t->next = a; t->h = 1;
    a = t;
    if (__VERIFIER_nondet_int()) a = a->next;
  }
  if (a == NULL || a->h != 1) reach_error();
  return 0;
}
