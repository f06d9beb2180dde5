// i counts from 0 up to n: at the end it is n. Loop invariant: 0 <= i <= n, which the
// gallery's c_loop_hints.dl proposes (signs and orders of the variables live at the head).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000000) return 0;
  int i = 0;
  while (i < n) {
    i++;
  }
  if (i != n) reach_error();
  return 0;
}
