// A write through a pointer into the array lands in the element the check reads.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[8] = {0};
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 7) return 0;
  int *p = a + i;
  p[1] = 3;
  if (a[5] == 3) reach_error();
  return 0;
}
