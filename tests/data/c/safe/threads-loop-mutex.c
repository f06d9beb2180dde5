// Any number of threads enter a critical section under a mutex: inside it, what a thread
// wrote is still there (the last-writer ghosts tell the proof that no other thread holds the
// mutex).
#include <pthread.h>
void reach_error(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int owner = 0;
void *enter(void *arg) {
  pthread_mutex_lock(&m);
  owner = 1;
  if (owner != 1) reach_error();
  owner = 0;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, enter, 0);
  }
  return 0;
}
