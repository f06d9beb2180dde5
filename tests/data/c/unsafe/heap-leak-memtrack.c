// property: valid-memsafety valid-memtrack
#include <stdlib.h>
typedef struct node { int h; struct node *n; } *List;
int main(void) {
  List a = (List) malloc(sizeof(struct node));
  a->n = (List) malloc(sizeof(struct node));
  a->n->n = NULL;
  free(a);
  return 0;
}
