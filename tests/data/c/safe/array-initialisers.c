// Initialiser lists: flat, `{0}` (the rest zero), nested braces, brace elision, unsized,
// global and static arrays, and element types narrower than int.
extern void reach_error(void);
int g[2][2] = {{1, 2}, {3}};
unsigned char bytes[3] = {255, 256, -1};
int f(void) {
  static int calls[1];
  calls[0]++;
  return calls[0];
}
int main() {
  int a[3] = {1, 2, 3};
  int z[100] = {0};
  int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
  int e[2][2] = {1, 2, 3};
  int u[] = {7, 8, 9, 10};
  if (a[0] + a[1] + a[2] != 6) reach_error();
  if (z[99] != 0 || m[1][0] != 4 || e[1][0] != 3 || e[1][1] != 0) reach_error();
  if (u[3] != 10 || g[0][1] != 2 || g[1][0] != 3 || g[1][1] != 0) reach_error();
  if (bytes[0] != 255 || bytes[1] != 0 || bytes[2] != 255) reach_error();
  f();
  if (f() != 2) reach_error();
  return 0;
}
