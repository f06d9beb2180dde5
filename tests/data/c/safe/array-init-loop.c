// An initialisation loop, then one element checked; a global array starts zero.
extern void reach_error(void);
#define N 10
int g[N];
int main() {
  int a[N];
  int i;
  for (i = 0; i < N; i++) a[i] = i;
  if (a[3] != 3) reach_error();
  if (g[4] != 0) reach_error();
  return 0;
}
