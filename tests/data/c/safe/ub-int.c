// Undefined behaviour ends the execution (see the README): every branch below performs an
// undefined int operation before reaching the error, so no execution reaches it. INT_MIN / -1
// and INT_MIN % -1 overflow (C11 6.5.5p6), as do -INT_MIN, INT_MAX + 1 and a left shift of a
// negative value or into the sign bit; division by zero and shifts by a negative amount or by
// 32 or more are undefined whatever the operands.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int min = -2147483647 - 1;
  int k = __VERIFIER_nondet_int();
  int d = __VERIFIER_nondet_int();
  int r;
  if (k == 0) { r = min / -1; reach_error(); }
  if (k == 1) { r = min % -1; reach_error(); }
  if (k == 2) { r = min / d; if (d == -1) reach_error(); }
  if (k == 3) { r = min % d; if (d == -1) reach_error(); }
  if (k == 4) { r = 7 / d; if (d == 0) reach_error(); }
  if (k == 5) { r = 7 % d; if (d == 0) reach_error(); }
  if (k == 6) { r = -min; reach_error(); }
  if (k == 7) { r = 2147483647; r++; reach_error(); }
  if (k == 8) { r = 1 << d; if (d < 0 || d > 30) reach_error(); }
  if (k == 9) { r = 1 >> d; if (d < 0 || d >= 32) reach_error(); }
  if (k == 10) { r = -1 << 1; reach_error(); }
  if (k == 11) { r = 3 << 31; reach_error(); }
  if (k == 12) { r = d * 65536; if (d >= 32768) reach_error(); }
  return 0;
}
