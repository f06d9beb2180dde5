// Ours: the loop unrolled three times; i steps by 3 against 1, so the counters are out of
// phase by 0, 1 or 2 at the pairs of locations inside the body.
#include <pthread.h>
int i, n, x, a;
void *prog(void *arg) {
  i = 0;
  while (i < 3 * n) {
    x = x + 1;
    x = x + 1;
    x = x + 1;
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
