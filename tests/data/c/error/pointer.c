// expect: 4:12: unsupported: conversions of integers to pointers
int main() {
  int n = 4;
  int *p = n;
  return 0;
}
