// TriCera's conventions: `nondet()` declared and never defined is any value of its type, and
// `assume(c)` (undeclared) is `__VERIFIER_assume(c)`. n = 7 passes the assumption: unsafe.
extern int nondet();
void reach_error(void);
int main(void) {
  int n = nondet();
  assume(n > 5);
  if (n == 7) reach_error();
  return 0;
}
