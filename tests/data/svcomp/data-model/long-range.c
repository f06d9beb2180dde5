// expect: ILP32 safe, LP64 unsafe
// A nondet `long` exceeds INT_MAX only when `long` has 64 bits.
extern void reach_error(void);
extern long __VERIFIER_nondet_long(void);
int main() {
  long x = __VERIFIER_nondet_long();
  if (x > 2147483647L) reach_error();
  return 0;
}
