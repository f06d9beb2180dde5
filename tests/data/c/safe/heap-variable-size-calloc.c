extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#include <stdlib.h>
// calloc's blocks of a variable size are zero, and two blocks never overlap.
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 1 && n < 10);
  int *a = calloc(n, sizeof(int));
  int *b = calloc(n, sizeof(int));
  b[0] = 5;
  if (a[n - 1] != 0 || a[0] != 0)
    reach_error();
  free(a);
  free(b);
  return 0;
}
