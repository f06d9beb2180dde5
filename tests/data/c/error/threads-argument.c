// expect: 11:33: unsupported: thread arguments other than a null pointer
#include <pthread.h>
int x;
void *worker(void *arg) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  int v = 3;
  pthread_create(&t, 0, worker, &v);
  return 0;
}
