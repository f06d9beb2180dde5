// The error call is unreachable, but a list node's `next` (NULL) may be dereferenced, as in
// forester-heap's sll-01-2 ("should be a real error"): no `safe` under unreach-call.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct node { struct node *next; int data; };
int main() {
  struct node *n = malloc(sizeof(struct node));
  if (!n) return 0;
  n->next = 0;
  n->data = 1;
  if (__VERIFIER_nondet_int()) n->next->data = 2;
  if (n->data != 1) reach_error();
  free(n);
  return 0;
}
