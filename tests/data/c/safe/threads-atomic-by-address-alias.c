// Both pointer parameters of the atomic function get the address of the same local: `*a` and
// `*b` are one variable, so `x` is raised twice. Inlined, each `*p` becomes `x` itself, which
// keeps the aliasing (copying the values in and out would leave `x` at 1): safe.
#include <pthread.h>
void reach_error(void);
int g;
void __VERIFIER_atomic_incr2(int *a, int *b) {
  *a = *a + 1;
  *b = *b + 1;
  g = g + 1;
}
void *t(void *arg) {
  int x = 0;
  __VERIFIER_atomic_incr2(&x, &x);
  if (x != 2) reach_error();
  return 0;
}
int main(void) {
  pthread_t h;
  while (1) pthread_create(&h, 0, t, 0);
  return 0;
}
