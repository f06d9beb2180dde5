// property: valid-memsafety
// `&list` is the address of a local of a function other than `main`: the clauses do not
// model its lifetime under a memory property and refuse the program, but the shape engine
// reads it (calls inlined, `*pp` standing for `list`) and proves it.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; };
static void chain(struct node **pp) {
  struct node *n = malloc(sizeof(struct node));
  if (!n) abort();
  n->next = *pp;
  *pp = n;
}
static struct node *create(void) {
  struct node *list = NULL;
  do
    chain(&list);
  while (__VERIFIER_nondet_int());
  return list;
}
int main(void) {
  struct node *l = create();
  while (l) {
    struct node *t = l->next;
    free(l);
    l = t;
  }
  return 0;
}
