extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
struct pair { int x, y; };
struct pair swap(struct pair p);
int first(struct pair p) { return p.x; }
int main() {
  struct pair p;
  p.x = __VERIFIER_nondet_int();
  p.y = 7;
  __VERIFIER_assert(first(p) != 42);
  return 0;
}
