// `items[0]` through a pointer to a pointer.
extern void reach_error(void);
struct cell { int v; };
struct cell c;
int get(struct cell **items) {
  return (*items[0]).v;
}
int main(void) {
  struct cell *p = &c;
  c.v = 7;
  if (get(&p) != 7) reach_error();
  return 0;
}
