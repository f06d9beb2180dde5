// Threads created in a loop and joined one by one each set a flag to 1 (the rely-guarantee
// encoding does not wait at a join: the flag is 0 or 1 wherever main is).
#include <pthread.h>
void reach_error(void);
int flag = 0;
void *set(void *arg) {
  flag = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  int i;
  for (i = 0; i < 5; i++) {
    pthread_create(&t, 0, set, 0);
    pthread_join(t, 0);
  }
  if (flag < 0 || flag > 1) reach_error();
  return 0;
}
