// property: valid-memsafety valid-free
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 50)
    return 0;
  long *a = malloc(n * sizeof(long));
  free(a + (n > 1)); // inside the block when n > 1
  return 0;
}
