// expect: 5:12: unsupported: pointers into variable-length arrays
extern int __VERIFIER_nondet_int(void);
int main() {
  int n = __VERIFIER_nondet_int(); if (n < 1) return 0; int a[n];
  int *p = a;
  return *p;
}
