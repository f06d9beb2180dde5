// Ours: a wrong unrolling: the bound 2n + 1 runs the unrolled body n + 1 times (2n + 2
// increments of x against 2n), so no weak simulation exists. The sampled paired runs still
// suggest counter relations at the pairs they reach; the guess must not turn into refines.
#include <pthread.h>
int i, n, x, a;
void *prog(void *arg) {
  i = 0;
  while (i < 2 * n + 1) {
    x = x + 1;
    x = x + 1;
    i = i + 2;
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
