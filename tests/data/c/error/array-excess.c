// expect: 3:21: excess elements in the array initialiser
int main() {
  int a[2] = {1, 2, 3};
  return a[0];
}
