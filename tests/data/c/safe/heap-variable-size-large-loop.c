// Blocks of a variable size allocated in a loop keep the strided layout (at most 4095
// elements each): these are small, and each holds what was written into it.
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
  for (int k = 0; k < 3; k++) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n > 0 && n < 100);
    int *a = malloc(sizeof(int) * n);
    a[n - 1] = k;
    if (a[n - 1] != k) {
      reach_error();
    }
    free(a);
  }
  return 0;
}
