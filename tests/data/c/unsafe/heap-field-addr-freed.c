// property: valid-memsafety valid-deref
#include <stdlib.h>
struct node { int h; struct node *n; };
int main(void) {
  struct node *p = malloc(sizeof(struct node));
  free(p);
  struct node **q = &p->n;
  *q = NULL;
  return 0;
}
