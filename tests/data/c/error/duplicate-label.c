// expect: 6:3: label `L` defined twice in `main`
extern void reach_error(void);
int main(void) {
  int x = 0;
  L: x = 1;
  L: x = 2;
  if (x == 3) reach_error();
  return 0;
}
