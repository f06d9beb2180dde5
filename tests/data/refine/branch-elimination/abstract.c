// Seed 004, Fig. 13 (branch elimination): source program C1, environment Ce. The environment does not modify a.
#include <pthread.h>
int i, n, a, b, c;
void *prog(void *arg) {
  while (i < n) {
    if (a < 5) {
      b = b + 5;
    } else {
      b = 2 * b;
    }
    i = i + 1;
  }
  return 0;
}
void *env(void *arg) {
  i = a + 2;
  b = a + b;
  c = 2 * b - i;
  a = 1 * a;
  b = i + 3 * c;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
