extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = x < 100 && x + 1 > 0;
  int z = x != 2147483647 ? x + 1 : 0;
  if (x == 2147483647 && y == 0 && z == 0) reach_error();
  return 0;
}
