// expect: 4:3: syntax error: unexpected `return`, expected `;`, `,` or an operator
int main() {
  int x = 1
  return x;
}
