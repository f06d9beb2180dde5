// Seed 004, Fig. 3(b): the concrete GCD thread T2' (reads of a and b apart, interleaved),
// beside the environment the paper assumes for it (b is not written, a only while a > b),
// given as the abstract T1, whose steps are exactly that relation.
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
  int y1, y2;
  int n = 0;
  while (n == 0) {
    y1 = a;
    y2 = b;
    if (y1 == y2)
      n = 1;
    if (y1 < y2)
      b = y2 - y1;
  }
  return 0;
}
int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  return 0;
}
