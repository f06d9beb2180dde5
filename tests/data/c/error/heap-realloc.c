// expect: 5:12: unsupported: `realloc`
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  int *q = realloc(p, 2 * sizeof(int));
  return 0;
}
