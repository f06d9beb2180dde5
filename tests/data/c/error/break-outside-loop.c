// expect: 4:3: `break` outside a loop or switch
int main(void) {
  int x = 0;
  break;
  return x;
}
