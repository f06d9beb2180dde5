// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
// A binary tree whose nodes point to their parents: grown by descending from the root to
// a free place, then destroyed by walking down to a leaf, freeing it, and going back up.
struct node { struct node *left, *right, *parent; };
int main(void) {
  struct node *root = malloc(sizeof(struct node));
  root->left = NULL; root->right = NULL; root->parent = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = root;
    while (n->left && n->right) {
      if (__VERIFIER_nondet_int()) n = n->left; else n = n->right;
    }
    struct node *c = malloc(sizeof(struct node));
    c->left = NULL; c->right = NULL; c->parent = n;
    if (!n->left) n->left = c; else n->right = c;
  }
  struct node *n = root;
  while (n) {
    if (n->left) { n = n->left; }
    else if (n->right) { n = n->right; }
    else {
      struct node *p = n->parent;
      if (p) { if (p->left == n) p->left = NULL; else p->right = NULL; }
      free(n);
      n = p;
    }
  }
  return 0;
}
