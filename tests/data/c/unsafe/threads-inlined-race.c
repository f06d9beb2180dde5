// The race is inside a function both threads call: its steps interleave (it is inlined).
#include <pthread.h>
void reach_error(void);
int x = 0;
int bump(int by) {
  int t = x;
  x = t + by;
  return t;
}
void *worker(void *arg) {
  bump(1);
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, worker, 0);
  int old = bump(2);
  pthread_join(a, 0);
  if (x != 3) reach_error();
  return 0;
}
