// expect: 4:11: unsupported: casts of pointers to integers in programs that allocate memory
int main(void) {
  int *a = malloc(sizeof(int));
  int x = (int) a;
  return x;
}
