// expect: 3:5: conflicting declarations of function `f`
int f(int a);
int f(long long a) { return 0; }
int main() { return f(1); }
