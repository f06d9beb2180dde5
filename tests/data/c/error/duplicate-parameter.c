// expect: 2:18: redeclaration of `a` in the same scope
int f(int a, int a) { return a; }
int main() { return f(1, 2); }
