// Two threads increment a shared counter through an atomic function: no update is lost.
#include <pthread.h>
void reach_error(void);
int x = 0;
void __VERIFIER_atomic_inc(void) { x = x + 1; }
void *worker(void *arg) {
  __VERIFIER_atomic_inc();
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
