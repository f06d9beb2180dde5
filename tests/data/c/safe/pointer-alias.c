extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
struct d { int a, b; };
struct d d1, d2;
struct d *pick(void) { return __VERIFIER_nondet_bool() ? &d1 : &d2; }
int main() {
  struct d *p = pick(), *q = pick();
  int *pa = &p->b;
  d1.b = __VERIFIER_nondet_int();
  d2.b = __VERIFIER_nondet_int();
  q->b = 3;
  if (p == q) {
    __VERIFIER_assert(*pa == 3 && (*p).b == 3);
  } else {
    __VERIFIER_assert(p != 0 && pa != &q->b);
  }
  return 0;
}
