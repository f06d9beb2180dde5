// property: valid-memsafety valid-deref
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n < 1000);
  int *a = malloc(n * sizeof(int));
  a[n] = 2; // one past the end (and any element of an empty block)
  free(a);
  return 0;
}
