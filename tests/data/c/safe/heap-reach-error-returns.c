// property: valid-memsafety
// Under a memory property `reach_error()` is no error: its empty definition returns, and the
// execution goes on to `free(p)` (of a null pointer here, which is fine).
#include <stdlib.h>
void reach_error() {}
int main(void) {
  int *p = malloc(sizeof(int));
  if (p == 0) {
    reach_error();
  }
  free(p);
  return 0;
}
