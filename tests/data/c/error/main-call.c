// expect: 4:21: unsupported: calls of `main`
int main() {
  int x = 0;
  if (x > 0) return main();
  return 0;
}
