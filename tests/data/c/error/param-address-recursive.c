// expect: 3:12: unsupported: the address of a local of a recursive function
int f(int n) {
  int *p = &n;
  if (n > 0) return f(n - 1) + *p;
  return 0;
}
int main() { return f(3); }
