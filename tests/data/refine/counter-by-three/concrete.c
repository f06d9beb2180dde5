// Ours: the same loop counting i to 3n by 3 (c.i = 3 * a.i where the loops are in phase).
#include <pthread.h>
int i, n, x, a;
void *prog(void *arg) {
  i = 0;
  while (i < 3 * n) {
    x = x + 3;
    i = i + 3;
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
