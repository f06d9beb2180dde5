// expect: 5:3: unsupported: accesses through a pointer to another type
int main() {
  int x = 1;
  char *c = (char *)&x;
  *c = 2;
  return 0;
}
