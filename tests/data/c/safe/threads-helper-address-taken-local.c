// Two threads call work(), whose local `mine` is passed by address to an atomic function.
// Made one global (as address-taken locals are), one thread's write would reach the other
// (this was answered unsafe). The call is inlined with `*r` as `mine` itself, so each thread
// keeps its own `mine`: safe.
#include <pthread.h>
void reach_error(void);
int g;
void __VERIFIER_atomic_set(int *r, int v) { *r = v; }
void work(int v) {
  int mine;
  __VERIFIER_atomic_set(&mine, v);
  g = g + 1;
  if (mine != v) reach_error();
}
void *t1(void *a) { work(1); return 0; }
void *t2(void *a) { work(2); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
