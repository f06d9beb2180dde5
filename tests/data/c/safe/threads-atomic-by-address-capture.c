// The atomic function reads the global `g`; its caller has a local `g` of its own. Inlining
// the call (to keep `x` a local) would make the body read the caller's `g` (5) and reach the
// error: the call must stay a call. One thread runs `t`, so `x` may be made a global: safe.
#include <pthread.h>
void reach_error(void);
int g = 0;
void __VERIFIER_atomic_add(int *r) {
  *r = *r + g;
  g = g + 1;
}
void *t(void *a) {
  int g = 5;
  int x = 0;
  __VERIFIER_atomic_add(&x);
  if (x != 0 || g != 5) reach_error();
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  return 0;
}
