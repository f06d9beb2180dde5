// expect: 3:1: no definition of `main`
int f(int x) { return x; }
