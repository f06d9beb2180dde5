// Bitwise operators and shifts with constants, exact; a variable shift amount.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { reach_error(); } }
int main() {
  unsigned int x = __VERIFIER_nondet_uint();
  __VERIFIER_assert((x & 1) == x % 2);
  __VERIFIER_assert(((x | 1) & 1) == 1);
  __VERIFIER_assert(((x << 1) & 1) == 0);
  __VERIFIER_assert((x >> 31) <= 1);
  __VERIFIER_assert((0xF0 & 0x3C) == 0x30 && (0xF0 | 0x0F) == 0xFF && (5 ^ 3) == 6);
  int n = -8;
  __VERIFIER_assert((n >> 1) == -4 && ~n == 7);
  unsigned int k = __VERIFIER_nondet_uint() % 4;
  __VERIFIER_assert((1u << k) >= 1 && (1u << k) <= 8);
  return 0;
}
