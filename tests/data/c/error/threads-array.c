// expect: 10:18: unsupported: a thread handle other than the address of a scalar variable
#include <pthread.h>
int x;
void *worker(void *arg) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t ts[2];
  pthread_create(&ts[0], 0, worker, 0);
  return 0;
}
