// property: valid-memsafety
// A list appended to through a `struct node **` parameter and freed by a function: the
// shape engine inlines the calls (`*head` is `main`'s `l`).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
typedef struct node { struct node *next; int data; } *SLL;
SLL node_create(int data) {
  SLL n = malloc(sizeof(struct node));
  if (!n) abort();
  n->next = NULL;
  n->data = data;
  return n;
}
void append(SLL *head, int data) {
  SLL n = node_create(data);
  if (*head == NULL) {
    *head = n;
  } else {
    SLL last = *head;
    while (last->next) last = last->next;
    last->next = n;
  }
}
void destroy(SLL head) {
  while (head) {
    SLL t = head->next;
    free(head);
    head = t;
  }
}
int main(void) {
  SLL l = NULL;
  while (__VERIFIER_nondet_int()) append(&l, 1);
  destroy(l);
  return 0;
}
