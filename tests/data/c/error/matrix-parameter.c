// expect: 3:11: unsupported: multi-dimensional array parameters
extern void reach_error(void);
int f(int a[][3], int n) { return a[0][0]; }
int main() {
  int m[2][3] = {0};
  return f(m, 2);
}
