// Arrays of pointers: elements point to variables and into arrays.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int x, y;
int a[4];
int *ptrs[3];
int main() {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 2) return 0;
  ptrs[0] = &x;
  ptrs[1] = &y;
  ptrs[2] = &a[1];
  *ptrs[i] = 5;
  int *q = ptrs[i];
  if (*q != 5) reach_error();
  int *local[2];
  local[0] = a;
  local[1] = ptrs[2] + 1;
  *local[1] = 8;
  if (a[2] != 8 || local[0][2] != 8) reach_error();
  return 0;
}
