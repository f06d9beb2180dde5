// An array field as a pointer: `s.d`, `*s.d`, `s.d + u`, one past its end.
extern void reach_error(void);
struct S { int n; int d[3]; } s;
int h() { return *s.d + s.d[1]; }
int main() {
  int *p = s.d;
  int *q = &s.n;
  p = p + 3;
  if (p == q) reach_error();
  int k = p - s.d;
  if (k != 3) reach_error();
  unsigned int u = 2;
  int *r = s.d + u;
  *r = 4;
  if (s.d[2] != 4 || h() != 0) reach_error();
  return 0;
}
