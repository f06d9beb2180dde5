// Declaring a name again where C allows it: tentative definitions completed by one
// definition, `extern` declarations and prototypes agreeing with the definition, `f()`
// leaving the parameters open, shadowing in inner blocks, and a block-scope `extern` that
// names the global (not a new local).
extern void reach_error(void);
extern int g;
int g;
int g = 3;
int g;
int twice(int);
int twice(int v);
int later();
int twice(int v) { return v + v; }
int later(int a, int b) { return a - b; }
int main() {
  int x = 1;
  {
    int x = 2;
    if (x != 2) reach_error();
    { int x = 3; if (x != 3) reach_error(); }
  }
  for (int x = 5; x < 6; x++) { int x = 7; if (x != 7) reach_error(); }
  {
    extern int g;
    if (g != 3) reach_error();
    g = 4;
  }
  if (x != 1 || g != 4 || twice(g) != 8 || later(5, 2) != 3) reach_error();
  return 0;
}
