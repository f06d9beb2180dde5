// Any number of threads set a flag: safe for any number of threads, which the rely-guarantee
// clauses prove (the environment relation: a step sets the flag to 1).
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
