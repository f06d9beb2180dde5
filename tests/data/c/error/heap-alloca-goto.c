// expect: 6:12: unsupported: `alloca` in a function with labels (a `goto` may repeat it)
#include <stdlib.h>
int main(void) {
  int i = 0;
again:;
  int *p = alloca(sizeof(int));
  *p = i;
  if (++i < 3)
    goto again;
  return 0;
}
