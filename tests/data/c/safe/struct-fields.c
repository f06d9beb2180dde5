extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
struct inner { int b; int c; };
typedef struct outer { int a; struct inner in; } outer_t;
struct outer g = {1, {2, 3}};
int sum(struct inner x) { return x.b + x.c; }
int main() {
  outer_t s = {4, {5, 6}};
  struct outer t;
  struct inner d = {.c = 7, .b = 1, 8};
  int n = __VERIFIER_nondet_int();
  s.in.c = n;
  t = s;
  t.a++;
  s.a += 2;
  __VERIFIER_assert(t.in.c == n && t.a == 5 && s.a == 6);
  __VERIFIER_assert(sum(t.in) == 5 + n || n > 1000000 || n < -1000000);
  __VERIFIER_assert(g.a + g.in.b + g.in.c == 6);
  __VERIFIER_assert(d.b == 1 && d.c == 8);
  return 0;
}
