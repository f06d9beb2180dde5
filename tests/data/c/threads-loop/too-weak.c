// n threads each add 1 to x once, so x never exceeds n: safe, but a thread-modular proof
// cannot count the threads (every instance's step may repeat in the environment), so the
// rely-guarantee clauses have a derivation and the answer is unknown.
#include <pthread.h>
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int x = 0;
int n;
void *check(void *arg) {
  if (x > n) reach_error();
  return 0;
}
void *inc(void *arg) {
  int t = x;
  x = t + 1;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  int i;
  n = __VERIFIER_nondet_int();
  if (n < 1) return 0;
  pthread_create(&t1, 0, check, 0);
  for (i = 0; i < n; i++) {
    pthread_create(&t2, 0, inc, 0);
  }
  return 0;
}
