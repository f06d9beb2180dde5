// expect: 3:13: unterminated string literal
int main() {
  char *s = "no closing quote;
  return 0;
}
