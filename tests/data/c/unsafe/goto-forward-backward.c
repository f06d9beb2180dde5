// The goto loop of safe/goto-forward-backward.c with an off-by-one check.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0, s = 0;
  if (n < 0 || n > 1000) return 0;
loop:
  if (i >= n) goto out;
  s += 2;
  i++;
  goto loop;
out:
  if (s == 6) reach_error();
  return 0;
}
