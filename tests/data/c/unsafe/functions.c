// Prototypes, globals, calls and mutual recursion: the error is reachable exactly when the
// calls compute what C says.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int calls = 0;
int is_even(int n);
int is_odd(int n) { if (n == 0) return 0; return is_even(n - 1); }
int is_even(int n) { if (n == 0) return 1; return is_odd(n - 1); }
int twice(int v) { calls++; return v + v; }
void bump(void) { calls = calls + 10; }
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 5) return 0;
  int d = twice(n);
  bump();
  if (calls == 11 && is_even(d) && !is_odd(d) && n == 2) reach_error();
  return 0;
}
