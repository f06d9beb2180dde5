// The loop invariant bounds `*p`, which the witness cannot state: it leaves the loop head
// out (for the validator to solve for) rather than claim a weakened, non-inductive invariant.
extern void abort(void);
void reach_error(void) { abort(); }
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a[4];
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < 4) {
    a[i] = i;
    int *p = &a[i];
    int j = i - 6;
    while (j < *p) {
      j++;
    }
    if (j != i) reach_error();
  }
  return 0;
}
