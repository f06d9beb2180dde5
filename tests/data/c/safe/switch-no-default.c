// A switch without default on a value none of its cases match leaves the body; the controlling
// value is promoted to int, so `case 300` never matches an unsigned char; nested switch.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  unsigned char c = __VERIFIER_nondet_int();
  int r = 0;
  switch (c) {
  case 300:
    r = 1;
    break;
  case 'a':
    switch (r) {
    case 0:
      r = 2;
      break;
    }
    break;
  }
  if (r == 1) reach_error();
  if (c == 97 && r != 2) reach_error();
  if (c != 97 && r != 0) reach_error();
  return 0;
}
