extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
struct S { int p; int n; };
int main() {
  struct S a[5];
  struct S s;
  int i;
  for (i = 0; i < 5; i++) {
    s.p = __VERIFIER_nondet_int();
    s.n = i;
    a[i] = s;
  }
  struct S t = a[3];
  __VERIFIER_assert(t.n == 3);
  __VERIFIER_assert(t.p != 42);
  return 0;
}
