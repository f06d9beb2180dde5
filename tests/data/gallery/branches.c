// Unreachable code and constant conditions, for rules/gallery/c_unreachable_code.dl and
// c_constant_conditions.dl: the findings are in tests/gallery.rs.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
#define SWAP(a, b) do { int t = a; a = b; b = t; } while (0)

int clamp(int x) {
  if (x > 10) {
    return 10;
    x = 0;
  } else {
    return x;
  }
  return -1;
}

int main() {
  int x = __VERIFIER_nondet_int();
  int y = 1;
  __VERIFIER_assume(1);
  SWAP(x, y);
  if (sizeof(int) < 2) {
    x = 0;
  }
  while (1) {
    if (x > 3) break;
    x++;
    continue;
    y--;
  }
  if (0) {
    y = 5;
  }
  goto out;
  x = 4;
  y = 3;
out:
  return clamp(x) + y;
}
