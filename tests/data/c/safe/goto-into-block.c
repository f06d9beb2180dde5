// A jump into the middle of a nested block, and out of a loop from its body.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int k = 0, r = 0;
  if (__VERIFIER_nondet_int()) goto inside;
  k = 5;
  {
    r = 1;
  inside:
    r = r + 10;
  }
  while (1) {
    k++;
    if (k > 20) goto done;
  }
done:
  if (r != 10 && r != 11) reach_error();
  if (k != 21) reach_error();
  return 0;
}
