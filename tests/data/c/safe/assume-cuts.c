// A failed assumption or abort() ends the execution without an error.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void abort(void);
int main() {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 10);
  if (x < 5) reach_error();
  if (x == 11) { abort(); reach_error(); }
  assert(x != 11);
  return 0;
}
