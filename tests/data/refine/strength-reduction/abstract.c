// Seed 004, Fig. 6 (strength reduction): source program C1, environment Ce. The environment does not modify i (nor k).
#include <pthread.h>
int i, n, x, k;
void *prog(void *arg) {
  i = 0;
  while (i < n) {
    x = x + 5 * i;
    i = i + 1;
  }
  return 0;
}
void *env(void *arg) {
  x = x + 3;
  n = n + 6;
  x = n + 2 * i;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
