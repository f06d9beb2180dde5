// expect: 4:12: syntax error: unexpected end of input, expected `}` or a statement
int main() {
  int x = 0;
  return x;
