extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int *p = &x;
  if (*p == x + 1) {
    reach_error();
  }
  return 0;
}
