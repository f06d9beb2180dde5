// expect: 3:11: unsupported: array parameters
extern void reach_error(void);
int f(int a[], int n) { return a[0]; }
int main() {
  return 0;
}
