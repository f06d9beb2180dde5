// Division is outside the subset `refine` reads.
#include <pthread.h>
int r, t, x;
void *prog(void *arg) {
  r = 0;
  t = x / 5;
  r = t;
  return 0;
}
void *env(void *arg) {
  x = x + 1;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
