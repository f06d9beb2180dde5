// property: valid-memsafety valid-free
// `reach_error()` returns (its definition is empty), so the second `free` runs: a double free.
#include <stdlib.h>
void reach_error() {}
int main(void) {
  int *p = malloc(sizeof(int));
  if (p == 0) return 0;
  free(p);
  reach_error();
  free(p);
  return 0;
}
