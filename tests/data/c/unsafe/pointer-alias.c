extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
struct d { int a, b; };
struct d d1, d2;
struct d *pick(void) { return __VERIFIER_nondet_bool() ? &d1 : &d2; }
int main() {
  struct d *p = pick(), *q = pick();
  p->a = 1;
  q->a = 2;
  __VERIFIER_assert(p->a == 1);
  return 0;
}
