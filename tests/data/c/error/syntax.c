// expect: 3:14: syntax error: unexpected `;`, expected an expression
int main() {
  int x = 1 +;
  return 0;
}
