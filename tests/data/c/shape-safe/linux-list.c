// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
// A Linux-style circular list: the links are `struct list_head` fields of the items, the
// head a variable; the walk gets from each link back to its item with `container_of`.
struct list_head { struct list_head *next; };
struct item { void *data; int key; struct list_head link; };
#define container_of(p, T, f) ((T *)((char *)(p) - __builtin_offsetof(T, f)))
int main(void) {
  struct list_head head = { &(head) };
  struct item *it;
  while (__VERIFIER_nondet_int()) {
    it = malloc(sizeof *it);
    it->data = NULL;
    it->key = __VERIFIER_nondet_int();
    it->link.next = head.next;
    head.next = &it->link;
  }
  struct item *now = container_of(head.next, struct item, link);
  while (&now->link != &head) {
    it = now;
    now = container_of(now->link.next, struct item, link);
    free(it);
  }
  return 0;
}
