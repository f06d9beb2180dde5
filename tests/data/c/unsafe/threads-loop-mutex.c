// Threads created in a loop enter a critical section, but the second check is outside it:
// another thread may have set the flag in between (unsafe; a schedule finds it, the
// rely-guarantee clauses alone could not: the harness runs the schedules for `threads-loop-*`).
#include <pthread.h>
void reach_error(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int owner = 0;
void *enter(void *arg) {
  pthread_mutex_lock(&m);
  owner = 1;
  owner = 0;
  pthread_mutex_unlock(&m);
  if (owner != 0) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, enter, 0);
  }
  return 0;
}
