// expect: 5:8: unsupported: pointers to functions or arrays
extern void reach_error(void);
int twice(int x) { return 2 * x; }
int main() {
  int (*f)(int) = twice;
  if (f(1) != 2) reach_error();
  return 0;
}
