// The defined neighbours of undefined operations compute what C says, and the error is reached
// through them: INT_MIN / 1, (INT_MIN + 1) / -1, INT_MIN % 2, -7 / 2 and -7 % 2 truncate toward
// zero, -1 >> 1 is -1 (arithmetic shift), 1 << 30, 1u << 31, LLONG_MIN / 2, unsigned
// wrap-around, and a nondet divisor that is not zero.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int min = -2147483647 - 1;
  long long lmin = -9223372036854775807LL - 1;
  int d = __VERIFIER_nondet_int();
  int q = 100 / d;
  if (min / 1 == min && (min + 1) / -1 == 2147483647 && min % 2 == 0 && min % -2 == 0
      && -7 / 2 == -3 && -7 % 2 == -1 && (-1 >> 1) == -1 && (1 << 30) == 1073741824
      && (1u << 31) == 2147483648u && lmin / 2 == -4611686018427387904LL
      && 0u - 1u == 4294967295u && q == -33)
    reach_error();
  return 0;
}
