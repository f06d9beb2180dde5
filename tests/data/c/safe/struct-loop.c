extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
struct counter { int i; int total; };
void step(struct counter *c) { c->i++; c->total += 2; }
int main() {
  struct counter c = {0, 0};
  int *q = &c.total;
  int n = __VERIFIER_nondet_int();
  while (c.i < n) {
    step(&c);
  }
  __VERIFIER_assert(*q == 2 * c.i);
  return 0;
}
