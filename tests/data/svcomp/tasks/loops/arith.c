// Arithmetic, casts, wrap-around of unsigned types, division and remainder toward zero.
extern void reach_error(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();} } return; }
int main() {
  unsigned int u = 0;
  u = u - 1;
  __VERIFIER_assert(u == 4294967295U);
  unsigned char c = 250;
  c += 10;
  __VERIFIER_assert(c == 4);
  __VERIFIER_assert((unsigned char)300 == 44);
  __VERIFIER_assert((signed char)200 == -56);
  __VERIFIER_assert(-7 / 2 == -3 && -7 % 2 == -1 && 7 / -2 == -3 && 7 % -2 == 1);
  long long big = 3000000000LL;
  __VERIFIER_assert(big > 2147483647);
  int x = 5;
  x *= 3; x -= 1; x /= 2; x %= 4;
  __VERIFIER_assert(x == 3);
  int y = x++;
  y = y + ++x;
  __VERIFIER_assert(y == 8 && x == 5);
  __VERIFIER_assert((0 < 1) + (2 > 3) == 1);
  _Bool b = 42;
  __VERIFIER_assert(b == 1);
  return 0;
}
