// Two threads add each other's counter three times each, i += j and j += i, in any order; at
// any moment neither exceeds 21 (strict alternation reaches 21). The bound is a function of
// both threads' loop counters that no linear invariant states: the explicit states prove it.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void);
int i = 1, j = 1;
void *left(void *arg) {
  for (int k = 0; k < 3; k++) {
    __VERIFIER_atomic_begin();
    i += j;
    __VERIFIER_atomic_end();
  }
  return 0;
}
void *right(void *arg) {
  for (int k = 0; k < 3; k++) {
    __VERIFIER_atomic_begin();
    j += i;
    __VERIFIER_atomic_end();
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, left, 0);
  pthread_create(&b, 0, right, 0);
  __VERIFIER_atomic_begin();
  int big = i > 21 || j > 21;
  __VERIFIER_atomic_end();
  if (big) reach_error();
  return 0;
}
