// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
// A Linux-style list freed by a walk that copies the next item's pointer (`now = next`):
// past the last item `next` is the container of the head, no item, and `&now->link` must
// then be the head as `&next->link` was (a copy of a pointer copies its parts' addresses).
struct list_head { struct list_head *next, *prev; };
struct item { struct list_head link; void *data; };
#define container_of(p, T, f) ((T *)((char *)(p) - __builtin_offsetof(T, f)))
int main(void) {
  struct list_head head = { &(head), &(head) };
  struct item *now, *next;
  while (__VERIFIER_nondet_int()) {
    now = malloc(sizeof *now);
    now->data = NULL;
    now->link.next = &head;
    now->link.prev = head.prev;
    head.prev->next = &now->link;
    head.prev = &now->link;
  }
  now = container_of(head.next, struct item, link);
  while (&now->link != &head) {
    next = container_of(now->link.next, struct item, link);
    free(now);
    now = next;
  }
  return 0;
}
