// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
// A red node is always followed by a black one: freeing two at a time after a red node is
// safe, which the shape engine sees only when it tracks the colour field.
typedef enum { RED, BLACK } Colour;
typedef struct node {
  struct node *next;
  Colour colour;
} Node;
int main(void) {
  Node *list = malloc(sizeof(Node));
  list->next = NULL;
  list->colour = BLACK;
  Node *end = list;
  while (__VERIFIER_nondet_int()) {
    end->next = malloc(sizeof(Node));
    end = end->next;
    end->next = NULL;
    if (__VERIFIER_nondet_int()) {
      end->colour = BLACK;
    } else {
      end->colour = RED;
      end->next = malloc(sizeof(Node));
      end = end->next;
      end->next = NULL;
      end->colour = BLACK;
    }
  }
  while (list != NULL) {
    if (RED == list->colour) {
      end = list->next;
      free(list);
      list = end->next;
      free(end);
    } else {
      end = list->next;
      free(list);
      list = end;
    }
  }
  return 0;
}
