#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
// A queue whose nodes are marked 1, 2, then 3 as a counter `status` goes up: how long the
// list is follows from `status`, and the marks from their order. The shape engine proves the
// error unreachable only by tracking the integer local `status` beside the `data` field.
typedef struct node { struct node *next; struct node *prev; int data; } Node;
int main(void) {
  Node *head = malloc(sizeof(Node));
  head->next = NULL; head->prev = NULL; head->data = 0;
  Node *item = head;
  int status = 0;
  while (__VERIFIER_nondet_int()) {
    item->next = malloc(sizeof(Node));
    item->next->prev = item;
    item = item->next;
    item->next = NULL;
    if (!status) { item->data = 1; status = 1; }
    else if (status == 1) { item->data = 2; status = 2; }
    else { item->data = 3; status = 3; }
  }
  if (status >= 2) {
    if (head->next->next == NULL) reach_error();
    if (head->next->data != 1) reach_error();
  }
  if (status == 3 && head->next->next->next->data <= 2) reach_error();
  while (head) { item = head; head = head->next; free(item); }
  return 0;
}
