// The counterexample of a program whose small arrays became scalars replays on the program:
// after three steps `sum[0]` is 6, and element 1 was never written (any value).
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  int sum[2];
  sum[0] = 0;
  for (int i = 0; i < n; i++) {
    sum[0] += 2;
  }
  __VERIFIER_assert(sum[0] != 6 || sum[1] != 7);
  return 0;
}
