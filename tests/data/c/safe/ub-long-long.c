// Undefined behaviour ends the execution, in long long (64 bits): LLONG_MIN / -1,
// LLONG_MIN % -1, division by zero, shifts by 64 or a negative amount, 1LL << 63.
extern long long __VERIFIER_nondet_longlong(void);
extern void reach_error(void);
int main() {
  long long min = -9223372036854775807LL - 1;
  long long k = __VERIFIER_nondet_longlong();
  long long d = __VERIFIER_nondet_longlong();
  long long r;
  if (k == 0) { r = min / -1; reach_error(); }
  if (k == 1) { r = min % -1LL; reach_error(); }
  if (k == 2) { r = min / d; if (d == -1) reach_error(); }
  if (k == 3) { r = min % d; if (d == -1) reach_error(); }
  if (k == 4) { r = 7LL / d; if (d == 0) reach_error(); }
  if (k == 5) { r = 7LL % d; if (d == 0) reach_error(); }
  if (k == 6) { r = 1LL << d; if (d < 0 || d > 62) reach_error(); }
  if (k == 7) { r = 1LL >> 64; reach_error(); }
  if (k == 8) { r = 9223372036854775807LL + d; if (d > 0) reach_error(); }
  return 0;
}
