// property: valid-memsafety
// An empty `reach_error` that every call follows at once with `abort()`: the call does
// nothing and the execution ends there, which is what the front end's built-in means.
#include <stdlib.h>
void reach_error() {}
int main(void) {
  int *p = malloc(sizeof(int));
  if (p == 0) {
    ERROR: {reach_error(); abort();}
  }
  *p = 1;
  free(p);
  return 0;
}
