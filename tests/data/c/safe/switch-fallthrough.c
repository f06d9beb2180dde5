// switch with fall-through, a default in the middle, break, and continue of the enclosing loop.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int total = 0;
  for (int i = 0; i < 6; i++) {
    switch (i % 4) {
    case 0:
      total += 1;
    case 1:
      total += 10;
      break;
    default:
      total += 100;
    case 3:
      continue;
    }
    total += 1000;
  }
  // i = 0: 1 + 10 + 1000; 1: 10 + 1000; 2: 100; 3: -; 4: 1011; 5: 1010
  if (total != 4142) reach_error();
  return 0;
}
