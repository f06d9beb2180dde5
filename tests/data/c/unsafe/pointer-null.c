extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = 1;
  int *p = 0;
  if (__VERIFIER_nondet_int()) {
    p = &x;
  }
  if (p != 0) {
    *p = 2;
  }
  if (x == 2) {
    reach_error();
  }
  return 0;
}
