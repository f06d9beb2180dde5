// A pointer one past a struct is not the address of its second field (each cell is followed
// by an address no cell has).
extern void reach_error(void);
struct S { int a, b; };
struct S s;
int main() {
  struct S *p = &s;
  int *end = (int *)(p + 1);
  if (end == &s.b) reach_error();
  int a[2];
  if (a + 2 == &s.a || a + 2 == &s.b) reach_error();
  return 0;
}
