// expect: 4:12: unsupported: pointers into multi-dimensional arrays
int main() {
  int m[2][2];
  int *p = &m[1][0];
  return *p;
}
