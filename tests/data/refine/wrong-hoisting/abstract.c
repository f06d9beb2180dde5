// Not from the paper: `t = x + 5` moved before `r = 0` while the environment writes x
// (wrong: the concrete thread may read an older x). Expected: does not refine.
#include <pthread.h>
int r, t, x;
void *prog(void *arg) {
  r = 0;
  t = x + 5;
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
