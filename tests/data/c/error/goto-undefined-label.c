// expect: 4:3: label `nowhere` used but not defined in `main`
int main(void) {
  int x = 0;
  goto nowhere;
  return x;
}
