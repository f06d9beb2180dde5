// Ours: the source program of loop unrolling (seed 004, Fig. 14).
#include <pthread.h>
int i, n, x, a;
void *prog(void *arg) {
  i = 0;
  while (i < 2 * n) {
    x = x + 1;
    i = i + 1;
  }
  return 0;
}
void *env(void *arg) {
  x = x + 2;
  a = x + 4;
  x = 2 * x;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
