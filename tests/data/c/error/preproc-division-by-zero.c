// expect: 4:9: division by zero in #if
// A division by zero in a `#if` expression is an error where it is evaluated.
#define N 4
#if 100 / (N - 4) > 1
#endif
int main() { return 0; }
