// The proof reads bits of `x` by division and remainder: the correctness witness writes
// them Euclidean in C (issue 58: such conjuncts were dropped, and `1` was not inductive).
extern void abort(void);
void reach_error(void) { abort(); }
extern int __VERIFIER_nondet_int(void);
int main(void) {
  unsigned int x = 5;
  while (__VERIFIER_nondet_int()) {
    x += 8;
  }
  if ((x & 5) != 5) reach_error();
  return 0;
}
