// (x & 4) is either 0 or 4; the assertion forgets 4.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main() {
  unsigned int x = __VERIFIER_nondet_uint();
  if ((x & 4) != 0 && x > 100) reach_error();
  return 0;
}
