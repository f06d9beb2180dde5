// expect: 4:11: unsupported: `sizeof` of an array or of this expression
int main() {
  int a[3] = {0};
  int n = sizeof(a) / sizeof(a[0]);
  return n;
}
