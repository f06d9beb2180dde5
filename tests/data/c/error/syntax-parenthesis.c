// expect: 4:14: syntax error: unexpected `)`, expected a statement
// Tokens are named as C writes them, not by the grammar's names (`rparen`).
int main() {
  if (0 < 1) ) return 1;
  return 0;
}
