// One array copied into another element by element, then every pair compared: the proof
// reads two cells at one index.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#define N 1000
int main() {
  int a[N];
  int b[N];
  int i;
  for (i = 0; i < N; i++) a[i] = __VERIFIER_nondet_int();
  for (i = 0; i < N; i++) b[i] = a[i];
  for (i = 0; i < N; i++) {
    if (a[i] != b[i]) reach_error();
  }
  return 0;
}
