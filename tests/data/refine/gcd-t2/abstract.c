// Seed 004, Fig. 3(a): the abstract concurrent GCD programs T1 and T2 (loop bodies atomic).
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int a, b;
void *t1(void *arg) {
  int m = 0;
  while (m == 0) {
    __VERIFIER_atomic_begin();
    if (a == b)
      m = 1;
    if (a > b)
      a = a - b;
    __VERIFIER_atomic_end();
  }
  return 0;
}
void *t2(void *arg) {
  int n = 0;
  while (n == 0) {
    __VERIFIER_atomic_begin();
    if (a == b)
      n = 1;
    if (a < b)
      b = b - a;
    __VERIFIER_atomic_end();
  }
  return 0;
}
int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  return 0;
}
