// Regression: the points-to facts missed `q = p++` (the old value flows), so `*q` was an
// invalid dereference that ended the path and the bug went unseen (answered safe).
extern void reach_error(void);
int a[3];
int main() {
  int *p = a;
  int *q = p++;
  *q = 1;
  int *r = (a[2] = 0, p);
  *r = 2;
  if (a[0] == 1 && a[1] == 2) reach_error();
  return 0;
}
