// A wait returns only after a signal sent while it waited (no spurious wakeups): the signal
// comes only after `ready = 1`, so the waiter that waits once (an `if`, not a loop) sees it.
#include <pthread.h>
void reach_error(void);
pthread_mutex_t m;
pthread_cond_t c;
int ready = 0;
void *signaller(void *arg) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, signaller, 0);
  pthread_mutex_lock(&m);
  if (!ready) {
    pthread_cond_wait(&c, &m);
    if (!ready) reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}
