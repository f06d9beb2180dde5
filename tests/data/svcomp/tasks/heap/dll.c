// property: valid-memsafety
#include <stdlib.h>
struct dnode { int v; struct dnode *next; struct dnode *prev; };
int main(void) {
  struct dnode *a = malloc(sizeof(struct dnode));
  struct dnode *b = malloc(sizeof(struct dnode));
  a->next = b; a->prev = NULL;
  b->next = NULL; b->prev = a;
  b->prev->v = 2;
  free(a->next);
  free(a);
  return 0;
}
