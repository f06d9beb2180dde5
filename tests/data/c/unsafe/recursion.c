// A recursive function whose result the assertion gets wrong for n = 3.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 4) return 0;
  if (sum(n) == 6) reach_error();
  return 0;
}
