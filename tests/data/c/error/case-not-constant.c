// expect: 5:8: a case label must be an integer constant expression
int main(void) {
  int x = 0, y = 1;
  switch (x) {
  case y: break;
  }
  return x;
}
