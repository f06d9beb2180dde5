// Seed 004, Fig. 8 (dead code elimination): source program C1, environment Ce. The environment does not modify x, y and z.
#include <pthread.h>
int x, y, z, a;
void *prog(void *arg) {
  x = 1;
  y = 6;
  z = 4;
  y = 10;
  z = 3;
  return 0;
}
void *env(void *arg) {
  a = y + z;
  x = 1 * x;
  a = 2 * x + a;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
