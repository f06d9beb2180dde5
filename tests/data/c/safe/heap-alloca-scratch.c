// property: valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
// A scratch block per call: valid until the call returns, never freed, no leak.
int sum3(int x) {
  int *a = alloca(3 * sizeof(int));
  a[0] = x;
  a[1] = x + 1;
  a[2] = x + 2;
  return a[0] + a[1] + a[2];
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 100 || x < -100)
    return 0;
  int s = sum3(x);
  s = s + sum3(s);
  return s > 0;
}
