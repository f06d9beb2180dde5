// expect: 5:11: unsupported: rows of arrays used as values
extern int g(int x);
int main() {
  int m[2][2] = {0};
  int x = m[1];
  return x;
}
