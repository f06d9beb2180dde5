// A case without break falls through into the next one, which reaches the error.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int c = __VERIFIER_nondet_int();
  int x = 0;
  switch (c) {
  case 1:
    x = 1;
  case 2:
    x = x + 2;
    break;
  case 7:
    x = 7;
    break;
  }
  if (x == 3) reach_error();
  return 0;
}
