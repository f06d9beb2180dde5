// expect: 5:14: unsupported: `alloca` in a loop
#include <stdlib.h>
int main(void) {
  for (int i = 0; i < 3; i++) {
    int *p = alloca(sizeof(int));
    *p = i;
  }
  return 0;
}
