// The path to the error depends on the first two of the twenty array values and on `k`: the
// violation witness lists those (a prefix of each call site's values), not all twenty-one.
extern void abort(void);
void reach_error(void) { abort(); }
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a[20];
  for (int i = 0; i < 20; i++) {
    a[i] = __VERIFIER_nondet_int();
  }
  int k = __VERIFIER_nondet_int();
  if (a[1] == 3 && k == 7) {
    reach_error();
  }
  return 0;
}
