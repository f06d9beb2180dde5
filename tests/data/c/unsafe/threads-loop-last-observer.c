// An observer thread, created before a nondet number (12 to 15) of workers, sees every
// worker's increment only if it runs after all of them: unsafe, but only under a schedule that
// keeps the first thread back until the others are done, with the bound within its range
// (the priority schedules, newest thread first, with the program's compared constants).
#include <pthread.h>
void reach_error(void);
unsigned __VERIFIER_nondet_uint(void);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
unsigned done, total;
void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  done = done + 1;
  __VERIFIER_atomic_end();
  return 0;
}
void *observer(void *arg) {
  if (done == total) reach_error();
  return 0;
}
int main(void) {
  pthread_t o, w;
  unsigned i;
  total = __VERIFIER_nondet_uint();
  if (total < 12 || total > 15) return 0;
  pthread_create(&o, 0, observer, 0);
  for (i = 0; i < total; i++) {
    pthread_create(&w, 0, worker, 0);
  }
  return 0;
}
