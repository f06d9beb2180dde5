// Variable-length arrays: a non-positive size ends the execution; later accesses are checked
// against the size at the declaration.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int n = __VERIFIER_nondet_int();
  int a[n];
  if (n <= 0) reach_error();
  int k = n;
  n = 0;
  a[k - 1] = 5;
  if (a[k - 1] != 5) reach_error();
  return 0;
}
