// Up n times, then down n times: the proof needs the affine equalities s == 7 * i in the first
// loop and s == 7 * (n - j) in the second (with j <= n), which sampled states suggest.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  int i = 0, j = 0, s = 0;
  while (i < n) {
    i++;
    s += 7;
  }
  while (j < n) {
    j++;
    s -= 7;
  }
  if (s != 0) __VERIFIER_error();
  return 0;
}
