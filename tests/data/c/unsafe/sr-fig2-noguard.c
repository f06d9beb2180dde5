// Fig. 2 of the small refinements paper without the a != b guard: fails when a != b.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main() {
  int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();
  int x = a; int y = b; int z = 0;
  while (__VERIFIER_nondet_int()) { y++; z++; }
  while (z != 0) { y--; z--; }
  if (!(y == x)) __VERIFIER_error();
  return 0;
}
