extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
struct in { int a; int b; };
struct S { int p; struct in q; };
struct S arr[10][3];
int main() {
  struct S s = {1, {2, 3}};
  int i = 0, j = 2;
  /* The indices are evaluated once although three cells are copied. */
  arr[i++][j--] = s;
  __VERIFIER_assert(i == 1 && j == 1);
  struct S t = arr[0][2];
  __VERIFIER_assert(t.p == 1 && t.q.a == 2 && t.q.b == 3);
  arr[5][1] = arr[0][2];
  arr[5][1].q.b = 7;
  t = arr[5][1];
  __VERIFIER_assert(t.p == 1 && t.q.a == 2 && t.q.b == 7);
  __VERIFIER_assert(arr[0][2].q.b == 3 && arr[1][1].p == 0);
  struct in u = arr[0][2].q;
  __VERIFIER_assert(u.a == 2 && u.b == 3);
  return 0;
}
