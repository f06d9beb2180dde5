// A tiny SV-COMP-style task for trying the tool-info module: x counts up to n, never past it.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  int x = 0;
  while (x < n) x++;
  if (x != n) reach_error();
  return 0;
}
