// Seed 004, Fig. 3(b): the concrete GCD thread T1' (reads of a and b apart, interleaved),
// beside the environment the paper assumes for it in Fig. 4 (psi: a is not written, b only
// while a < b), given as the abstract T2, whose steps are exactly that relation.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int a, b;
void *t1(void *arg) {
  int x1, x2;
  int m = 0;
  while (m == 0) {
    x1 = a;
    x2 = b;
    if (x1 == x2)
      m = 1;
    if (x1 > x2)
      a = x1 - x2;
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
