// expect: 4:32: redeclaration of `x` in the same scope
extern void reach_error(void);
int main() {
  int x = 0; if (x) x = 2; int x = 1;
  if (x == 1) reach_error();
  return 0;
}
