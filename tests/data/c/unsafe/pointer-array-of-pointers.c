// The pointer chosen by the index may be the one into the array.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int x;
int a[4];
int main() {
  int *ptrs[2];
  ptrs[0] = &x;
  ptrs[1] = &a[3];
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 1) return 0;
  *ptrs[i] = 1;
  if (a[3] == 1) reach_error();
  return 0;
}
