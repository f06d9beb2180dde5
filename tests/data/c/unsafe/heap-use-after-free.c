// property: valid-memsafety valid-deref
#include <stdlib.h>
typedef struct node { int data; struct node *next; } Node;
int main(void) {
  Node *n = (Node *) malloc(sizeof(Node));
  n->data = 3;
  free(n);
  return n->data;
}
