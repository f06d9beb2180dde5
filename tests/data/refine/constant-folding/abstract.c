// Seed 004, Fig. 9 (constant folding and constant propagation): source program C1, environment Ce. The environment does not modify x and y.
#include <pthread.h>
int x, y, z, a;
void *prog(void *arg) {
  x = 100;
  y = x + 6;
  if (y < 200) {
    z = x + y;
  }
  return 0;
}
void *env(void *arg) {
  z = x + 3;
  a = x;
  z = z + 2;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
