// Any number of threads (created in a loop) increment a bounded counter in an atomic
// function: the counter never leaves 0..10 (rely-guarantee clauses: safe for any number).
#include <pthread.h>
void reach_error(void);
int x = 0;
void __VERIFIER_atomic_inc(void) {
  if (x < 10) x = x + 1;
}
void *inc(void *arg) {
  __VERIFIER_atomic_inc();
  if (x < 0 || x > 10) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, inc, 0);
  }
  return 0;
}
