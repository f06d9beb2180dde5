// expect: 5:12: unsupported: arrays of pointers
struct cell { int v; };
struct cell c;
int get(struct cell **items) {
  return (*items[0]).v;
}
int main(void) {
  struct cell *p = &c;
  return get(&p);
}
