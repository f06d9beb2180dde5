extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
int *gp;
int main() {
  int x = 1;
  int *p = (void *)0;
  unsigned long u;
  __VERIFIER_assert(gp == 0 && !p);
  __VERIFIER_assert((unsigned long)p == (unsigned long)((void *)0));
  if (__VERIFIER_nondet_int()) {
    p = &x;
  }
  u = (unsigned long)p;
  if (u != 0) {
    __VERIFIER_assert(*p == 1);
  }
  return 0;
}
