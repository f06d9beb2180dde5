// expect: 4:19: unsupported: calls of `main`
int main() {
  int x = 0;
  if (x > 0) return main();
  return 0;
}
