// The error is reachable only inside a switch body of a callee: the may-fail pass must see it
// (it once skipped switch bodies, and the callee got no error predicate).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void check(int c) {
  switch (c) {
  case 4:
    reach_error();
    break;
  default:
    break;
  }
}
int main(void) {
  check(__VERIFIER_nondet_int());
  return 0;
}
