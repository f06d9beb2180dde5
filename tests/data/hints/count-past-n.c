// As count-to-n.c, but the check is wrong: i ends at n, which may be 0 < 1.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000000) return 0;
  int i = 0;
  while (i < n) {
    i++;
  }
  if (i < 1) reach_error();
  return 0;
}
