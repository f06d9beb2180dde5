// expect: 5:10: unsupported: a variable named like the enumerator `A`
enum e { A = 1 };
int main(void) {
  int A = 2;
  return A;
}
