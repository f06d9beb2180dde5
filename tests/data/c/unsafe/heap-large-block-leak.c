// property: valid-memsafety valid-memtrack
#include <stdlib.h>
// 100 elements: more than a block of a fixed size holds, a block of a variable size then.
int main(void) {
  char *buf = malloc(100);
  buf[99] = 'x';
  buf = 0;
  return 0;
}
