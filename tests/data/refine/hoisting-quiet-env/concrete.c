// Not from the paper: `t = x + 5` moved before `r = 0`; the environment does not write x
// (it writes r, which the thread overwrites). Expected: refines.
#include <pthread.h>
int r, t, x;
void *prog(void *arg) {
  t = x + 5;
  r = 0;
  r = t;
  return 0;
}
void *env(void *arg) {
  r = r + 1;
  return 0;
}
int main(void) {
  pthread_t p, e;
  pthread_create(&p, 0, prog, 0);
  pthread_create(&e, 0, env, 0);
  return 0;
}
