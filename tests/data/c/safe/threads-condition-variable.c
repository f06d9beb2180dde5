// A condition variable: main waits in a loop until the producer has published its data; the
// wait releases the mutex (else the producer could never set `ready`) and takes it back.
#include <pthread.h>
void reach_error(void);
pthread_mutex_t m;
pthread_cond_t c;
int ready = 0;
int data = 0;
void *producer(void *arg) {
  pthread_mutex_lock(&m);
  data = 42;
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&c, 0);
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_wait(&c, &m);
  if (data != 42) reach_error();
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  pthread_cond_destroy(&c);
  return 0;
}
