// expect: 3:5: `f` is declared both as a variable and as a function
int f;
int f(void) { return 0; }
int main() { return f(); }
