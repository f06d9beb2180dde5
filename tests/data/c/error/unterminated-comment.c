// expect: 3:3: unterminated comment
int main() {
  /* the comment never ends
  return 0;
}
