// Two threads read, then write a shared counter without a lock: one update can be lost.
#include <pthread.h>
void reach_error(void);
int x = 0;
void *worker(void *arg) {
  int t = x;
  x = t + 1;
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
