// expect: 4:13: unsupported: this use of an array
int main(void) {
  int a[3];
  int *p = &a;
  return *p;
}
