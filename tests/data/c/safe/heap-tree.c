// property: valid-memsafety
#include <stdlib.h>
struct tree { int v; struct tree *left; struct tree *right; };
int main(void) {
  struct tree *root = calloc(1, sizeof(struct tree));
  root->left = calloc(1, sizeof(struct tree));
  root->right = calloc(1, sizeof(struct tree));
  root->left->v = root->right->v + 1;
  free(root->left);
  free(root->right);
  free(root);
  free(NULL);
  return 0;
}
