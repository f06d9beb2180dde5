// Seed 004, Fig. 7 (induction variable elimination): target program C2, environment Ce.
#include <pthread.h>
int i, n, x, k;
void *prog(void *arg) {
  k = 0;
  while (k < 5 * n) {
    x = x + k;
    k = k + 5;
  }
  return 0;
}
void *env(void *arg) {
  x = x + 3;
  n = n + 6;
  x = n + 2 * x;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
