// `p[i].a` through a pointer into an array of structs, and into a single struct.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct pair { int a, b; };
int first(struct pair *p, int i) {
  return p[i].a;
}
int main(void) {
  struct pair x, ps[4];
  x.a = 1;
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 4) return 0;
  ps[i].a = i + 10;
  ps[i].b = -1;
  if (first(&x, 0) != 1) reach_error();
  if (first(ps, i) != i + 10) reach_error();
  struct pair *q = &ps[i];
  if (q->b != -1 || (*q).a != i + 10) reach_error();
  return 0;
}
