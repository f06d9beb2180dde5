// A two-node DLL whose back pointer is wrong.
#include <stdlib.h>
void reach_error(void);
struct dnode { int v; struct dnode *next; struct dnode *prev; };
int main(void) {
  struct dnode *a = malloc(sizeof(struct dnode));
  struct dnode *b = malloc(sizeof(struct dnode));
  a->next = b; a->prev = NULL;
  b->next = NULL; b->prev = b;
  if (a->next->prev != a) reach_error();
  free(a); free(b);
  return 0;
}
