// The error is reached inside a callee.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void check(int v) { if (v == 42) reach_error(); }
int main() {
  int k = __VERIFIER_nondet_int();
  if (k > 40) check(k);
  return 0;
}
