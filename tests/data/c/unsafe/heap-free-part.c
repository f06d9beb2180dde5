// property: valid-memsafety valid-free
// `&x->head` points into the block `x`, not to its start: freeing it is invalid.
#include <stdlib.h>
struct item { struct item *next; int data; };
struct holder { struct holder *next; struct item head; };
int main(void) {
  struct holder *x = malloc(sizeof(struct holder));
  x->next = NULL;
  x->head.next = NULL;
  free(&x->head);
  return 0;
}
