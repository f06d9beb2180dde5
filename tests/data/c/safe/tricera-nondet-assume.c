// TriCera's conventions: `nondet()` declared and never defined is any value of its type, and
// `assume(c)` (undeclared) is `__VERIFIER_assume(c)`; a program's own `assume` would be kept.
// The assumption rules out n < 3: safe.
extern int nondet();
void reach_error(void);
int main(void) {
  int n = nondet();
  assume(n > 5);
  if (n < 3) reach_error();
  return 0;
}
