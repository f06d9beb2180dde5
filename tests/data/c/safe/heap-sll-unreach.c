// A list built in a loop: every node holds 1.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
typedef struct node { int h; struct node *n; } *List;
int main(void) {
  List a = (List) malloc(sizeof(struct node));
  a->h = 1;
  a->n = NULL;
  while (__VERIFIER_nondet_int()) {
    List t = (List) malloc(sizeof(struct node));
    t->h = 1;
    t->n = a;
    a = t;
  }
  if (a->h != 1) reach_error();
  return 0;
}
