// expect: 10:26: unsupported: thread functions given by expressions
#include <pthread.h>
int x;
void *worker(void *arg) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, (worker + 0), 0);
  return 0;
}
