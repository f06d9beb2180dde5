// A mutex makes each update atomic but does not order the threads: main may see 1.
#include <pthread.h>
void reach_error(void);
pthread_mutex_t m;
int x = 0;
void *one(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
void *two(void *arg) {
  pthread_mutex_lock(&m);
  if (x == 1) x = 3; else x = 2;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_mutex_init(&m, 0);
  pthread_t a, b;
  pthread_create(&a, 0, one, 0);
  pthread_create(&b, 0, two, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x == 1) reach_error();
  return 0;
}
