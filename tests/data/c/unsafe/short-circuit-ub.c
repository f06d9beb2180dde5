// The right operand of `||`, `&&` and the branches of `?:` run only when selected: their
// undefined behaviour (division by zero, signed overflow) must not cut the other executions.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = (x == 0 || 10 / x > 1) + (x < 100 && x + 1 > 0) + (x == 0 ? 1 : 7 / x);
  if (x == 0 && y == 3) reach_error();
  return 0;
}
