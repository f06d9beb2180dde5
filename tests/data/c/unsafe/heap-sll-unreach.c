// An SLL of nondet length; the check after the walk fails when the list is empty.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
typedef struct node { int h; struct node *n; } *List;
int main(void) {
  List a = NULL;
  int len = 0;
  while (__VERIFIER_nondet_int()) {
    List t = (List) malloc(sizeof(struct node));
    t->h = 1;
    t->n = a;
    a = t;
    len++;
  }
  if (a == NULL) reach_error();
  return 0;
}
