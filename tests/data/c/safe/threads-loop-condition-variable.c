// Threads created in a loop wait on a condition variable for main's go, which is never taken
// back: the rely-guarantee clauses prove it for any number of threads.
#include <pthread.h>
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m;
pthread_cond_t c;
int go = 0;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  while (!go)
    pthread_cond_wait(&c, &m);
  if (go != 1) reach_error();
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++)
    pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  go = 1;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
