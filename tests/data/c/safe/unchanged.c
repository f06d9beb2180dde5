// A loop that does not touch the asserted variable.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int y = 5, x = 0;
  while (__VERIFIER_nondet_int()) { x = x + y; }
  if (y != 5) reach_error();
  return 0;
}
