// expect: 9:3: unsupported: `pthread_cond_wait`
#include <pthread.h>
pthread_mutex_t m;
pthread_cond_t c;
int ready = 0;
void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  while (!ready)
  pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  return 0;
}
