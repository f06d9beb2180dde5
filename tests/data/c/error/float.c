// expect: 3:3: unsupported: floating-point types
int main() {
  double d = 1.5;
  return 0;
}
