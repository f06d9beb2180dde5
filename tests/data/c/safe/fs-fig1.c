// Formula slicing paper (Karpenkov, Monniaux, HVC 2016), Fig. 1: the sign of x is kept by the
// loop; the invariant (p != 0 => x >= 0) && (p == 0 => x < 0) is a weakening of the precondition.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: reach_error(); } }
int main() {
  int x = __VERIFIER_nondet_int(), p = __VERIFIER_nondet_int();
  if (p)
    __VERIFIER_assume(x >= 0);
  else
    __VERIFIER_assume(x < 0);
  for (int i = 0; i < __VERIFIER_nondet_int(); i++) {
    __VERIFIER_assume(x < 1000000 && x > -1000000);
    x *= 2;
  }
  if (p) __VERIFIER_assert(x >= 0);
  else __VERIFIER_assert(x < 0);
  return 0;
}
