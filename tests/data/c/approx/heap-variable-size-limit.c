extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#include <stdlib.h>
// Any count: the model's blocks of a variable size are smaller than some allocations, which it
// cannot follow (no answer rather than a wrong one).
int main(void) {
  int n = __VERIFIER_nondet_int();
  char *p = malloc(n);
  if (n > 5000 && p[5000] != p[5000])
    reach_error();
  return 0;
}
