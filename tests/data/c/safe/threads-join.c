// After pthread_join the thread's write is visible; pthread_exit ends the thread.
#include <pthread.h>
void reach_error(void);
int g = 0;
void *setter(void *arg) {
  g = 1;
  pthread_exit(NULL);
  g = 2;
  return 0;
}
int main(int argc, char **argv) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  pthread_join(t, 0);
  if (g != 1) reach_error();
  return 0;
}
