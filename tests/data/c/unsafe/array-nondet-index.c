// A read at a nondet index.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[5] = {3, 1, 4, 1, 5};
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < 5 && a[i] == 4) reach_error();
  return 0;
}
