// expect: 3:8: unsupported: arrays
int main() {
  int a[10];
  a[0] = 1;
  return 0;
}
