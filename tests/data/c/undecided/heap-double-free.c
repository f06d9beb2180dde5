// A block freed twice on one branch: undefined behaviour that leaves unreach-call undecided
// (the error call itself is unreachable).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int *p = malloc(sizeof(int));
  if (!p) return 0;
  *p = 5;
  int k = *p;
  free(p);
  if (__VERIFIER_nondet_int()) free(p);
  if (k != 5) reach_error();
  return 0;
}
