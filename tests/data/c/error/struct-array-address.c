// expect: 5:12: unsupported: pointers into arrays of structs
struct S { int n; };
struct S a[4];
int main() {
  int *p = &a[1].n;
  return *p;
}
