// Formula slicing paper, Fig. 3 (two nested loops), written from its edge encoding (Eq. 7):
// p is 1 or 2 before the loops and never changes, so the reset of c never happens.
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void reach_error(void);
int main() {
  int x = 0, y = 0, p, c = 1;
  _Bool s = __VERIFIER_nondet_bool();
  if (s) p = 1; else p = 2;
  while (__VERIFIER_nondet_int()) {
    x = x + 1;
    c = 100;
    while (__VERIFIER_nondet_int()) {
      if (p != 1 && p != 2) c = 0;
      y = y + 1;
    }
    if (c == 0) reach_error();
  }
  return 0;
}
