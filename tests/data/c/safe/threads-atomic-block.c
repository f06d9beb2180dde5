// A read and a write of a shared counter in one atomic block: no update is lost.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void);
int x = 0;
void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  int t = x;
  x = t + 1;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
}
