// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
#include <assert.h>
void reach_error() { assert(0); }
#define __VERIFIER_assert(cond) do { if (!(cond)) { reach_error(); abort(); } } while (0)
// A data assertion the shape engine cannot decide ends in abort() with the list built: not a
// memtrack violation (every block is still pointed to), and the macro's do-while(0) is no loop.
struct node { struct node *next; int len; };
int main(void) {
  struct node *head = malloc(sizeof(struct node));
  head->next = NULL;
  head->len = 1;
  struct node *x = head;
  while (__VERIFIER_nondet_int()) {
    x->next = malloc(sizeof(struct node));
    __VERIFIER_assert(x->next != NULL);
    x->next->len = x->len + 1;
    x = x->next;
    x->next = NULL;
  }
  x = head;
  while (x->next != NULL && __VERIFIER_nondet_int()) {
    __VERIFIER_assert(x != NULL);
    x = x->next;
  }
  __VERIFIER_assert(x->len >= 1);
  while (head != NULL) {
    x = head->next;
    free(head);
    head = x;
  }
  return 0;
}
