// property: valid-memsafety valid-deref
// One past the end of a block allocated once in `main`, of up to 100000 elements.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 4000 && n < 100000);
  int *a = malloc(n * sizeof(int));
  a[n] = 2;
  free(a);
  return 0;
}
