// property: valid-memsafety valid-free
#include <stdlib.h>
void f(int n) {
  int *a = alloca(n * sizeof(int));
  if (n > 2)
    free(a); // alloca'd memory is not the heap's
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 0 && n < 10)
    f(n);
  return 0;
}
