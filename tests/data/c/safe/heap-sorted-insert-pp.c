// property: valid-memsafety
// Insertion into a sorted list through a pointer to the field to update (`pp = &(*pp)->next`),
// the idiom of Forester's sll-mergesort.c; the shape engine reads `pp` as a node and a tag
// naming the field.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; int key; };
int main(void) {
  struct node *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    n->key = __VERIFIER_nondet_int();
    struct node **pp = &head;
    while (*pp && (*pp)->key < n->key)
      pp = &(*pp)->next;
    n->next = *pp;
    *pp = n;
  }
  while (head) {
    struct node *d = head;
    head = head->next;
    free(d);
  }
  return 0;
}
