extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
void set(int *p, int v) { *p = v; }
void inc(int *p) { (*p)++; }
void redirect(int **pp, int *q) { *pp = q; }
int main() {
  int a = 0, b = 0;
  int *p = &a;
  int **pp = &p;
  set(&a, 5);
  inc(p);
  redirect(pp, &b);
  **pp = 9;
  __VERIFIER_assert(a == 6 && b == 9 && p == &b && *p == 9);
  return 0;
}
