// Arrays as values are the addresses of their first elements: distinct arrays differ.
extern void reach_error(void);
int main() {
  int a[3], b[3];
  int *p = a, *q = &a[0];
  if (a == b) reach_error();
  if (p != q) reach_error();
  if (p + 1 != &a[1]) reach_error();
  return 0;
}
