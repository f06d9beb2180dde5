// if/else, while, for, do-while, break, continue, return, labels, the comma operator: the
// error is reachable exactly when every construct computes what C says.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int first_above(int limit) {
  int k = 0;
  while (1) {
    k++;
    if (k > limit) return k;
  }
  return -1;
}
int main() {
  int i, s = 0, t = 7, u;
  for (i = 0, s = 0; i < 10; i++) {
    if (i == 1) continue;
    if (i == 4) break;
    s += 1;
  }
  do { t--; } while (t > 5);
  u = (t++, t + 1);
  label: if (i == 4 && s == 3 && t == 6 && u == 7 && first_above(2) == 3) reach_error();
  return 0;
}
