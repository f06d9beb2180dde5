extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n > 100) return 0;
  int a[n][2];
  int i;
  for (i = 0; i < n; i++) { a[i][0] = i; a[i][1] = 2 * i; }
  if (n > 3 && a[3][1] == 6) reach_error();
  return 0;
}
