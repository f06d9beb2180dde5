// Seed 004, Fig. 5 (invariant hoisting), source program C1 with its environment Ce.
// The environment does not modify x and t.
#include <pthread.h>
int i, n, t, x, k;
void *prog(void *arg) {
  while (i < n) {
    t = x + 5;
    i = 2 * i + t;
  }
  return 0;
}
void *env(void *arg) {
  n = n + 1;
  k = 5 * x + 1;
  i = i + 3;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
