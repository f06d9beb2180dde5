// expect: 5:19: unsupported: allocation sizes other than a constant multiple of `sizeof(T)`
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int *p = malloc(n * sizeof(int));
  return 0;
}
