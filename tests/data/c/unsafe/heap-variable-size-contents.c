// property: valid-memsafety valid-free
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <stdlib.h>
// A block of a variable size holds any values until written.
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 1 && n < 10);
  int *a = malloc(n * sizeof(int));
  a[0] = 0;
  if (a[1] == 7)
    free(a);
  free(a);
  return 0;
}
