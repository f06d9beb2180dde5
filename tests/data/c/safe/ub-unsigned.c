// Unsigned arithmetic wraps and is never undefined, except division or remainder by zero and
// shifts by a negative amount or by the width or more: those end the execution.
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  unsigned int k = __VERIFIER_nondet_uint();
  unsigned int d = __VERIFIER_nondet_uint();
  int n = __VERIFIER_nondet_int();
  unsigned int r;
  if (k == 0) { r = 4294967295u / d; if (d == 0) reach_error(); }
  if (k == 1) { r = 4294967295u % d; if (d == 0) reach_error(); }
  if (k == 2) { r = 1u << d; if (d >= 32) reach_error(); }
  if (k == 3) { r = 1u >> n; if (n < 0 || n >= 32) reach_error(); }
  if (k == 4) { r = 0u - 1u; if (r != 4294967295u) reach_error(); }
  if (k == 5) { unsigned long long w = 1ull << 63; if (w / 0ull == 0) reach_error(); }
  return 0;
}
