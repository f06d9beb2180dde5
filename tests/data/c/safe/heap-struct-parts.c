// property: valid-memsafety
// Blocks each holding a `struct item` (not a pointer to one), whose `next` is null or a block
// of its own: the part lives and dies with its holder, `&x->head` points into the holder.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct item { struct item *next; int data; };
struct holder { struct holder *next; struct item head; };
int main(void) {
  struct holder *l = NULL;
  while (__VERIFIER_nondet_int()) {
    struct holder *x = malloc(sizeof(struct holder));
    x->next = l;
    x->head.next = NULL;
    x->head.data = 0;
    if (__VERIFIER_nondet_int()) {
      x->head.next = malloc(sizeof(struct item));
      x->head.next->next = NULL;
    }
    l = x;
  }
  while (l) {
    struct holder *x = l;
    l = l->next;
    struct item *i = &x->head;
    free(i->next);
    free(x);
  }
  return 0;
}
