// property: valid-memsafety
// &p->n computes an address without reading memory: no violation.
#include <stdlib.h>
struct node { int h; struct node *n; };
int main(void) {
  struct node *p = NULL;
  struct node **q = &p->n;
  return 0;
}
