// expect: 5:11: `continue` outside a loop
int main(void) {
  int x = 0;
  switch (x) {
  case 0: continue;
  }
  return x;
}
