// A two-dimensional array, compound assignments and increments of elements.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int b[2][3] = {{1, 2, 3}, {4, 5, 6}};
  int i = __VERIFIER_nondet_int();
  int j = __VERIFIER_nondet_int();
  if (i < 0 || i >= 2 || j < 0 || j >= 3) return 0;
  b[i][j] += 10;
  b[1][2]++;
  --b[0][0];
  if (b[i][j] < 10) reach_error();
  if (b[0][0] != 0 && !(i == 0 && j == 0)) reach_error();
  return 0;
}
