// assert() as in <assert.h>.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = x * x;
  assert(y != 49);
  return 0;
}
