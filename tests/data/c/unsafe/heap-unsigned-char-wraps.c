#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
// `c` is 256 % 256 == 0 after the store, so the error is reachable; a shape engine that took
// the constant 256 for the value of an `unsigned char` would call the program safe.
typedef struct node { struct node *next; unsigned char mark; } Node;
int main(void) {
  Node *n = malloc(sizeof(Node));
  n->next = NULL;
  unsigned char c = 256;
  n->mark = 256;
  if (c == 0 && n->mark == 0) reach_error();
  free(n);
  return 0;
}
