// expect: 4:6: unsupported: a definition of `reach_error` that may return, under a memory property
// property: valid-memsafety
#include <stdlib.h>
void reach_error() { int x = 0; x++; }
int main(void) {
  int *p = malloc(sizeof(int));
  if (p == 0) reach_error();
  free(p);
  return 0;
}
