extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
struct S { int n; int m; };
struct S a[20];
int main() {
  int i;
  for (i = 0; i < 20; i++) {
    a[i].n = 10;
  }
  int k = __VERIFIER_nondet_int();
  for (i = 0; i < 20; i++) {
    __VERIFIER_assert(a[i].n == 10);
    if (i + 1 != k && i + 1 < 20)
      a[i + 1].n = 20;
  }
  return 0;
}
