// expect: 4:11: unsupported: sizeof
int main() {
  int a[3] = {0};
  int n = sizeof(a) / sizeof(a[0]);
  return n;
}
