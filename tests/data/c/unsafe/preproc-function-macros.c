// A classic macro bug: `BADMAX` lacks parentheses, so `BADMAX(x, y) + 1` is
// `x > y ? x : y + 1`, and the assertion (a `do`/`while (0)` macro) fails when `x > y`.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#define __VERIFIER_assert(cond) do { if (!(cond)) reach_error(); } while (0)
#define BADMAX(a, b) a > b ? a : b
int main() {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x < 0 || x > 100 || y < 0 || y > 100) return 0;
  int m = BADMAX(x, y) + 1;
  __VERIFIER_assert(m > x && m > y);
  return 0;
}
