// expect: 3:14: syntax error
int main() {
  int x = 1 +;
  return 0;
}
