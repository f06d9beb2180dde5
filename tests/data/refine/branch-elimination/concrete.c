// Seed 004, Fig. 13 (branch elimination): target program C2, environment Ce.
#include <pthread.h>
int i, n, a, b, c;
void *prog(void *arg) {
  if (a < 5) {
    while (i < n) {
      b = b + 5;
      i = i + 1;
    }
  } else {
    while (i < n) {
      b = 2 * b;
      i = i + 1;
    }
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
