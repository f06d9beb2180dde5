// Static locals: initialised once, kept between calls, one per declaration even with the same
// name, and not visible outside their block.
extern void reach_error(void);
int a(void) { static int n = 10; return ++n; }
int b(void) { static int n = 20; return ++n; }
int main() {
  int n = 0;
  a();
  if (a() != 12 || b() != 21 || n != 0) reach_error();
  return 0;
}
