// A circular list of two nodes: unreach-call.
#include <stdlib.h>
void reach_error(void);
typedef struct node { int h; struct node *n; } Node;
int main(void) {
  Node *a = (Node *) malloc(sizeof(Node));
  Node *b = (Node *) malloc(sizeof(Node));
  a->h = 1; b->h = 2;
  a->n = b; b->n = a;
  if (a->n->n != a) reach_error();
  if (a->n->n->h != 1) reach_error();
  free(a); free(b);
  return 0;
}
