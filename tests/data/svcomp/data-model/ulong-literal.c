// expect: ILP32 safe, LP64 unsafe
// 4294967296UL does not fit in a 32-bit `unsigned long`: under ILP32 it is an
// `unsigned long long`, which no `unsigned long` value equals.
extern void reach_error(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
int main() {
  unsigned long x = __VERIFIER_nondet_ulong();
  unsigned long y = x + 1;
  if (x == 4294967296UL && y > x) reach_error();
  return 0;
}
