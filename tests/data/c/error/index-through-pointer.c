// expect: 4:10: unsupported: arrays of pointers, and indexing through pointers
struct pair { int a, b; };
int first(struct pair *p, int i) {
  return p[i].a;
}
int main(void) {
  struct pair x;
  x.a = 1;
  return first(&x, 0);
}
