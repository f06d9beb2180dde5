// Ours: i eliminated, the test on k (a.k = 5 * a.i + 3 where the loops are in phase).
#include <pthread.h>
int i, n, x, k;
void *prog(void *arg) {
  k = 3;
  while (k < 5 * n + 3) {
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
