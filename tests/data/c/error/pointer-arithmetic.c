// expect: 5:7: unsupported: pointer arithmetic
int main() {
  int a = 1;
  int *p = &a;
  p = p + 1;
  return 0;
}
