// expect: 3:10: undeclared variable `y`
int main() {
  return y;
}
