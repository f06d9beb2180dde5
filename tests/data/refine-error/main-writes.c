// `main` writes a global: the start state is given by --pre, not by main.
#include <pthread.h>
int r, t, x;
void *prog(void *arg) {
  r = 0;
  t = x + 5;
  r = t;
  return 0;
}
int main(void) {
  pthread_t p;
  x = 3;
  pthread_create(&p, 0, prog, 0);
  return 0;
}
