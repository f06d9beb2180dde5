// Safe, but `x & y` of two variables is over-approximated by the encoding (a value between 0
// and both operands): the spurious counterexample must not replay, so the answer is never
// `unsafe`.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main() {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = x;
  if ((x & y) != x) reach_error();
  return 0;
}
