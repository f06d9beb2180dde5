// Pointer arithmetic inside one array: `*p++`, `p < a + n`, `p - a`, an array parameter.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int sum(int v[], int n) {
  int s = 0;
  for (int *p = v; p < v + n; p++) s += *p;
  return s;
}
int main() {
  int a[5];
  int *p = a;
  while (p != a + 5) *p++ = 2;
  if (p - a != 5) reach_error();
  if (sum(a, 5) != 10) reach_error();
  p--;
  *p = 0;
  if (a[4] != 0 || sum(a, 5) != 8) reach_error();
  return 0;
}
