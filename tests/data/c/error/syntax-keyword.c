// expect: 3:7: syntax error: unexpected `while`, expected `;`, an identifier, `(`, `*` or a type
int main() {
  int while = 3;
  return 0;
}
