// Ours: induction variable elimination (seed 004, Fig. 7) with k starting at 3: the source.
#include <pthread.h>
int i, n, x, k;
void *prog(void *arg) {
  i = 0;
  k = 3;
  while (i < n) {
    x = x + k;
    i = i + 1;
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
