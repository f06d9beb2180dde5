// expect: 10:5: unsupported: `pthread_cond_timedwait`
#include <pthread.h>
pthread_mutex_t m;
pthread_cond_t c;
int ready = 0;
void *waiter(void *arg) {
  struct timespec *deadline = 0;
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_timedwait(&c, &m, deadline);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  return 0;
}
