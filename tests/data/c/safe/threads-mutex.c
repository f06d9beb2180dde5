// A mutex (statically initialised) protects a read-modify-write of a shared counter.
#include <pthread.h>
void reach_error(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int t = x;
  x = t + 1;
  pthread_mutex_unlock(&m);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  if (x != 2) reach_error();
  return 0;
}
