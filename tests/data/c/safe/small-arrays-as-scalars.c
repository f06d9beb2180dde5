// Small arrays read and written only at constant indices are scalars to the engines: a
// one-element accumulator (`sum[1]`, as SV-COMP's array-fpi tasks keep it), a global array
// with an initialiser updated by `++`, and a 2x2 local matrix.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int g[2] = {1, 2};

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  long long sum[1];
  int m[2][2] = {{1, 0}, {0, 1}};
  sum[0] = 0;
  for (int i = 0; i < n; i++) {
    sum[0] = sum[0] + 2;
    g[1]++;
  }
  __VERIFIER_assert(sum[0] == 2 * n);
  __VERIFIER_assert(g[1] == n + 2);
  __VERIFIER_assert(m[0][0] + m[1][1] == 2);
  return 0;
}
