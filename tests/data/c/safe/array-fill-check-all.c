// Every element written in one loop, every element checked in another: the proof needs an
// invariant over all indices below the loop counter (the cell abstraction's ranges).
extern void reach_error(void);
#define N 100000
int main() {
  int a[N];
  int i;
  for (i = 0; i < N; i++) a[i] = 5;
  for (i = 0; i < N; i++) {
    if (a[i] != 5) reach_error();
  }
  return 0;
}
