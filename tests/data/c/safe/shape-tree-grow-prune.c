// property: valid-memsafety
// A binary tree grown at random leaves, then destroyed leaf by leaf from the root.
#include <stdlib.h>
struct tree { struct tree *left, *right; };
int main(void) {
  struct tree *root = calloc(1, sizeof(struct tree));
  while (__VERIFIER_nondet_int()) {
    struct tree *t = root;
    while (t->left && t->right)
      t = __VERIFIER_nondet_int() ? t->left : t->right;
    if (!t->left)
      t->left = calloc(1, sizeof(struct tree));
    else if (!t->right)
      t->right = calloc(1, sizeof(struct tree));
  }
  while (root) {
    struct tree *parent = NULL, *t = root;
    while (t->left || t->right) {
      parent = t;
      t = t->left ? t->left : t->right;
    }
    if (!parent)
      root = NULL;
    else if (parent->left == t)
      parent->left = NULL;
    else
      parent->right = NULL;
    free(t);
  }
  return 0;
}
