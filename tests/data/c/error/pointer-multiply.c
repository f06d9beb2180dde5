// expect: 5:7: unsupported: this pointer arithmetic
int main() {
  int a = 1;
  int *p = &a;
  p = p * 2;
  return 0;
}
