// A negative index through a pointer into the middle of an array.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[4];
int main() {
  int *p = a + 1;
  p[-1] = 5;
  if (a[0] == 5) reach_error();
  return 0;
}
