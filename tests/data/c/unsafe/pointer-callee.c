extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
void set(int *p, int v) { *p = v; }
int main() {
  int a = 0, b = 0;
  set(__VERIFIER_nondet_int() ? &a : &b, 5);
  __VERIFIER_assert(a == 0);
  return 0;
}
