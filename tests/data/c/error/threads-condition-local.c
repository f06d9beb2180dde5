// expect: 6:21: unsupported: a condition variable that is not a global
#include <pthread.h>
pthread_mutex_t m;
int main(void) {
  pthread_cond_t c;
  pthread_cond_init(&c, 0);
  return 0;
}
