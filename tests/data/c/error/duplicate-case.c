// expect: 6:3: duplicate case value 1
int main(void) {
  int x = 0;
  switch (x) {
  case 1: break;
  case 1: break;
  }
  return x;
}
