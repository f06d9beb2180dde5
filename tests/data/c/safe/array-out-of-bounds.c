// An access outside the array is undefined behaviour: the execution ends there, so the error
// after it is unreachable.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[4] = {0};
  int i = __VERIFIER_nondet_int();
  a[i] = 1;
  if (i < 0 || i >= 4) reach_error();
  if (a[4] == 0) return 0;
  reach_error();
  return 0;
}
