// Unsigned subtraction wraps around: 0u - 1 is large.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
int main() {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int m = n - 1;
  __VERIFIER_assert(m < n);
  return 0;
}
