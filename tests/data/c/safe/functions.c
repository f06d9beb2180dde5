// Calls, globals and a recursive function with a simple summary.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int calls = 0;
int down(int n) { if (n <= 0) return 0; return down(n - 1); }
int twice(int v) { calls++; return v + v; }
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  int d = twice(n);
  if (calls != 1) reach_error();
  if (d < 0) reach_error();
  if (down(d) != 0) reach_error();
  return 0;
}
