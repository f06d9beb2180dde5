// Pointer arithmetic inside one array: `*p++`, `p < a + n`, `p - a`, an array parameter.
extern void reach_error(void);
int get(int v[], int i) { return v[i]; }
int main() {
  int a[3];
  int *p = a;
  while (p != a + 3) *p++ = 2;
  if (p - a != 3) reach_error();
  p--;
  *p = 0;
  for (int *q = a; q < p; q++) if (*q != 2) reach_error();
  if (a[2] != 0 || get(a, 1) != 2) reach_error();
  return 0;
}
