// property: valid-memsafety
#include <stdlib.h>

struct node {
  struct node *next;
  int v;
};

int main(void) {
  struct node *n = malloc(sizeof(struct node));
  n->v = 1;
  n->next = NULL;
  free(n);
  return 0;
}
