// Function-like macros as SV-COMP tasks use them: an assertion macro (a block with the error
// call), macros nesting and calling each other, arguments with commas inside parentheses,
// a zero-parameter macro standing for a nondet call, a macro that names itself (`assert`
// stays the built-in), `##` pasting names, and a name not followed by `(` left alone.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#define __VERIFIER_assert(cond) { if (!(cond)) { reach_error(); } }
#define assert(x) assert(x)
#define NONDET() __VERIFIER_nondet_int()
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define CLAMP(v, lo, hi) MIN(MAX(v, lo), hi)
#define SQUARE(x) ((x) * (x))
#define VAR(n) var_ ## n
#define CALL(f, ...) f(__VA_ARGS__)
int add(int a, int b) { return a + b; }
int MAX = 7;
int main() {
  int VAR(a) = NONDET();
  int var_b = NONDET();
  if (var_a < -1000 || var_a > 1000 || VAR(b) < -1000 || var_b > 1000) return 0;
  int m = MAX(var_a, var_b);
  __VERIFIER_assert(m >= var_a && m >= var_b);
  __VERIFIER_assert(m == var_a || m == var_b);
  int c = CLAMP(add(var_a, 5), 0, MAX(MAX, 10));
  assert(c >= 0 && c <= 10);
  assert(SQUARE(var_a - var_b) >= 0);
  __VERIFIER_assert(CALL(add, m, MIN(var_a, var_b)) == var_a + var_b);
  return 0;
}
