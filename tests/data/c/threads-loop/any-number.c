// Any number of threads set a flag: safe, but without a thread-modular encoding the answer
// is unknown (never a guess).
#include <pthread.h>
void reach_error(void);
int flag = 0;
void *set(void *arg) {
  flag = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, set, 0);
    if (flag > 1) reach_error();
  }
  return 0;
}
