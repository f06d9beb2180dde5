// The address of a parameter: each parameter is an object of its own (a copy of the
// argument), so `inc(&a)` changes `f`'s `a` and not the caller's `x`; a pointer parameter's
// address too (`push(&head, ...)` moves `build`'s copy of the list head).
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct node { int v; struct node *next; };
void inc(int *p) { *p = *p + 1; }
int f(int a) { inc(&a); return a; }
void push(struct node **h, int v) {
  struct node *n = malloc(sizeof(struct node));
  if (!n) abort();
  n->v = v;
  n->next = *h;
  *h = n;
}
int build(struct node *head) {
  push(&head, 7);
  return head->v;
}
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 100 || x < 0) return 0;
  if (f(x) != x + 1 || x > 100) reach_error();
  if (build(0) != 7) reach_error();
  return 0;
}
