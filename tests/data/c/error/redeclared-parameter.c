// expect: 3:27: redeclaration of `a` in the same scope
// The parameters and the outermost block of the body share one scope.
int f(int a, int b) { int a = b; return a; }
int main() { return f(1, 2); }
