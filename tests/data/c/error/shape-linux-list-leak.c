// expect: 17:58: unsupported: `__builtin_offsetof`
// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
// A Linux-style list whose walk forgets to free the items: the shape engine must not prove
// it, and the clauses do not model `container_of`, so the program is refused.
struct list_head { struct list_head *next; };
struct item { void *data; struct list_head link; };
int main(void) {
  struct list_head head = { &(head) };
  struct item *it;
  while (__VERIFIER_nondet_int()) {
    it = malloc(sizeof *it);
    it->link.next = head.next;
    head.next = &it->link;
  }
  struct item *now = (struct item *)((char *)head.next - __builtin_offsetof(struct item, link));
  while (&now->link != &head) {
    now = (struct item *)((char *)now->link.next - __builtin_offsetof(struct item, link));
  }
  return 0;
}
