// Seed 004, Fig. 12 (cross jumping): target program C2, environment Ce.
#include <pthread.h>
int x, y, a, b, c;
void *prog(void *arg) {
  if (x > 0) {
    a = a + 5;
  } else {
    b = b + 4;
  }
  if (y < 0) {
    b = 0;
  }
  return 0;
}
void *env(void *arg) {
  x = a + b;
  b = a + 2;
  c = 5 * a + b;
  y = x - 5;
  b = x + c;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
