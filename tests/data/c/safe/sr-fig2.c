// Small refinements paper (Terauchi), Fig. 2: P_ex. A small proof: a == b => y == x + z.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int ndet() { return __VERIFIER_nondet_int(); }
int main() {
  int a = ndet(); int b = ndet();
  int x = a; int y = b; int z = 0;
  while (ndet()) {
    y++; z++;
  }
  while (z != 0) {
    y--; z--;
  }
  if (!(a != b || y == x)) __VERIFIER_error();
  return 0;
}
