// Seed 004, Fig. 10 (if optimization (1)): target program C2, environment Ce.
#include <pthread.h>
int x, n, y, z, b;
void *prog(void *arg) {
  if (x > n) {
    y = y + 1;
    z = z + 1;
    x = y + z;
  }
  return 0;
}
void *env(void *arg) {
  y = x + y;
  z = y + 2;
  b = 2 * x + z;
  z = z + b;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
