// property: valid-memsafety valid-deref
#include <stdlib.h>
struct node { int data; struct node *next; };
int main(void) {
  struct node *n = malloc(sizeof(struct node));
  n->next = NULL;
  n->next->data = 1;
  free(n);
  return 0;
}
