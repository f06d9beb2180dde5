// property: valid-memsafety valid-free
#include <stdlib.h>
int main(void) {
  int *x = malloc(sizeof *x);
  free(x);
  free(x);
  return 0;
}
