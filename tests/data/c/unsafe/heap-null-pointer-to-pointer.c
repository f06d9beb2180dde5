// property: valid-memsafety valid-deref
// `*pp` with `pp` null: the shape engine once read `pp` as "the variable `head`" under an
// unknown tag (no struct has a field to `struct node`), and would have proved this program.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int data; };
int main(void) {
  struct node *head = NULL;
  struct node **pp = &head;
  if (__VERIFIER_nondet_int())
    pp = NULL;
  *pp = malloc(sizeof(struct node));
  free(head);
  return 0;
}
