// expect: 4:3: `case` outside a switch statement
int main(void) {
  int x = 0;
  case 1: x = 2;
  return x;
}
