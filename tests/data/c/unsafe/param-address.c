// The address of a parameter: `inc(&a)` changes `f`'s copy, never the caller's `x`.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void inc(int *p) { *p = *p + 1; }
int f(int a) { inc(&a); return a; }
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 100 || x < 0) return 0;
  f(x);
  if (x == 5) reach_error();
  return 0;
}
