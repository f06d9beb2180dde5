// Threads created in a loop increment a counter without a lock: an update can be lost, so
// the checker thread, created last, may see fewer increments than threads (unsafe).
#include <pthread.h>
void reach_error(void);
int x = 0;
void *inc(void *arg) {
  int t = x;
  x = t + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  int i;
  for (i = 0; i < 3; i++) {
    pthread_create(&t, 0, inc, 0);
  }
  while (x < 3) {
    int seen = x;
    if (seen == 2) {
      int again = x;
      if (again == 2) {
        reach_error();
      }
    }
  }
  return 0;
}
