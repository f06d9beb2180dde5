// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
// SV-COMP's list programs: `myexit` never returns, checks jump to an error label at the end
// of main, and the list ends at the node whose `h` is 3 (its `n` is never set).
typedef struct node {
  int h;
  struct node *n;
} *List;
void myexit(int s) {
_EXIT:
  goto _EXIT;
}
int main() {
  List a = (List)malloc(sizeof(struct node));
  if (a == 0)
    myexit(1);
  List t;
  List p = a;
  while (__VERIFIER_nondet_int()) {
    p->h = 1;
    t = (List)malloc(sizeof(struct node));
    if (t == 0)
      myexit(1);
    p->n = t;
    p = p->n;
  }
  p->h = 3;
  p = a;
  while (p->h != 3) {
    if (p->h != 1)
      goto ERROR;
    p = p->n;
  }
  p = a;
  while (p->h != 3) {
    List tmp = p;
    p = p->n;
    free(tmp);
  }
  free(p);
  return 0;
ERROR:
  __VERIFIER_error();
  return 1;
}
