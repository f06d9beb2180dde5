// main runs a second thread's code by calling it; the called function's atomic block and
// return value are kept (it is inlined into each thread).
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void);
int x = 0;
int bump(int by) {
  __VERIFIER_atomic_begin();
  int t = x;
  x = t + by;
  __VERIFIER_atomic_end();
  return t;
}
void *worker(void *arg) {
  bump(1);
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, worker, 0);
  int old = bump(2);
  if (old != 0 && old != 1) reach_error();
  worker(0);
  pthread_join(a, 0);
  if (x != 4) reach_error();
  return 0;
}
