// property: valid-memsafety
// Removes one element chosen by its data from a list of any length, keeping a pointer to the
// previous node, then frees the rest.
#include <stdlib.h>
struct item { struct item *next; int key; };
int main(void) {
  struct item *head = NULL;
  for (int i = 0; __VERIFIER_nondet_int(); i++) {
    struct item *it = malloc(sizeof *it);
    it->key = i;
    it->next = head;
    head = it;
  }
  int key = __VERIFIER_nondet_int();
  struct item *prev = NULL, *cur = head;
  while (cur && cur->key != key) {
    prev = cur;
    cur = cur->next;
  }
  if (cur) {
    if (prev)
      prev->next = cur->next;
    else
      head = cur->next;
    free(cur);
  }
  while (head) {
    cur = head->next;
    free(head);
    head = cur;
  }
  return 0;
}
