// property: valid-memsafety
// A block of up to 100000 elements, allocated once in `main`: one block that may be as large
// as the addresses allow (a strided site holds at most 4095 elements and could only answer
// unknown here).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n < 100000);
  int *a = malloc(sizeof(int) * n);
  a[0] = 1;
  a[n - 1] = 2;
  free(a);
  return 0;
}
