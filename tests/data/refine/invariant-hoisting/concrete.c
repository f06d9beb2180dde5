// Seed 004, Fig. 5 (invariant hoisting), target program C2 with the same environment Ce.
#include <pthread.h>
int i, n, t, x, k;
void *prog(void *arg) {
  t = x + 5;
  while (i < n) {
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
