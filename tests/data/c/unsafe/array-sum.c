// Nondet values stored in an array, summed, passed as scalar arguments.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int check(int x) { return x < 30; }
int main() {
  int a[3];
  int i, s = 0;
  for (i = 0; i < 3; i++) {
    a[i] = __VERIFIER_nondet_int();
    if (a[i] < 0 || a[i] > 10) return 0;
  }
  for (i = 0; i < 3; i++) s += a[i];
  if (!check(s)) reach_error();
  return 0;
}
