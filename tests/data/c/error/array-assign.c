// expect: 5:3: unsupported: assignments of whole arrays
int main() {
  int a[3] = {0};
  int b[3];
  b = a;
  return 0;
}
