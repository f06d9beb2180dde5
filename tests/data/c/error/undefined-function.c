// expect: 4:10: unsupported: call of `g`, which is declared but not defined
int g(int);
int main() {
  return g(1);
}
