// Without a join, the thread may or may not have run when main reads the flag.
#include <pthread.h>
void reach_error(void);
int flag = 0;
void *setter(void *arg) {
  flag = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  int seen = flag;
  if (seen == 1) reach_error();
  return 0;
}
