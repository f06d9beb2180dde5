// expect: 3:28: variable of incomplete type `struct S`
// A struct that contains itself is ill-formed even when no variable has its type.
struct S { int x; struct S s; };
int main(void) { return 0; }
