// Threads created in a loop each raise a shared maximum with a compare-and-swap whose result
// comes back through a pointer to a local (`&done`). Inlined, `done` stays a local of each
// thread, and the thread-modular proof goes through: after a thread's own swap or a failed
// test, `max >= mine`, and other threads only raise `max`.
#include <pthread.h>
void reach_error(void);
int __VERIFIER_nondet_int(void);
int max = 0;
void __VERIFIER_atomic_cas(int *v, int expected, int desired, int *ok) {
  if (*v == expected) {
    *v = desired;
    *ok = 1;
  } else {
    *ok = 0;
  }
}
void *raise_max(void *arg) {
  int mine = __VERIFIER_nondet_int();
  int seen;
  int done = 0;
  while (!done) {
    seen = max;
    if (mine <= seen) break;
    __VERIFIER_atomic_cas(&max, seen, mine, &done);
  }
  if (max < mine) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, raise_max, 0);
  return 0;
}
