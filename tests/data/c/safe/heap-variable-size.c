// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n < 1000);
  int *a = malloc(sizeof(int) * n);
  a[0] = 1;
  a[n - 1] = 2;
  free(a);
  return 0;
}
