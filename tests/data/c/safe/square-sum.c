// The sum of the first k odd numbers is k * k: the proof needs the quadratic equality
// s == k * k (with odd == 2 * k + 1 and k <= n), which sampled states suggest.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  int k = 0, s = 0, odd = 1;
  while (k < n) {
    s += odd;
    odd += 2;
    k++;
  }
  if (s != n * n) __VERIFIER_error();
  return 0;
}
